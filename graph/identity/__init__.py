"""Identity: canonical keys and internal ids, the id forms users type, and person-name matching.

Shared by the loaders (which assign ids and claim authors) and the reads (which resolve ids).
"""

"""Cypher of the one-writer lock (graph/writer_lock.py): a `(:WriterLock {name})` node, unique by name
(admin.CONSTRAINTS `writer_lock_name`), that exists while a writer holds it. Times are the server's clock,
so writers on different machines compare leases on one clock."""

from typing import LiteralString

# Take the lock when it is free (no node, no holder) or its lease ran out; else leave it. One statement:
# MERGE on the unique name (a concurrent MERGE waits for this one's commit), then a write that takes the
# node's write lock BEFORE its holder is read, so two writers finding it expired cannot both take it.
# Returns the holder afterwards, `acquired` true when it is the caller ($token), the server's `now`, and
# `stale`: the holder whose expired lease the caller took over (null when the lock was free).
ACQUIRE: LiteralString = """
MERGE (l:WriterLock {name: $name})
SET l.asked_at = datetime()
WITH l, l.token IS NULL OR l.expires_at IS NULL OR l.expires_at <= datetime() AS free
WITH l, free, CASE WHEN free AND l.token IS NOT NULL THEN l {
  .host, .pid, .command, since: toString(l.since), expires_at: toString(l.expires_at)
} END AS stale
SET l += CASE WHEN free THEN {
  token: $token, host: $host, pid: $pid, command: $command,
  since: datetime(), expires_at: datetime() + duration({milliseconds: $lease_ms})
} ELSE {} END
RETURN l.token = $token AS acquired, l.host AS host, l.pid AS pid, l.command AS command,
       toString(l.since) AS since, toString(l.expires_at) AS expires_at, toString(datetime()) AS now, stale
"""

# The heartbeat: move the lease on while the caller still holds the lock. No row: it was taken over.
RENEW: LiteralString = """
MATCH (l:WriterLock {name: $name})
WHERE l.token = $token
SET l.expires_at = datetime() + duration({milliseconds: $lease_ms})
RETURN toString(l.expires_at) AS expires_at
"""

# Give the lock back: only the caller's own (a writer never releases another's). The node goes, so a graph
# with no writer holds no WriterLock node (counts and comparisons see the data alone).
RELEASE: LiteralString = """
MATCH (l:WriterLock {name: $name})
WHERE l.token = $token
DELETE l
RETURN count(*) AS released
"""

# Who holds the lock now (no row: nobody), for messages and `weft status`-like reads.
HOLDER: LiteralString = """
MATCH (l:WriterLock {name: $name})
RETURN l.host AS host, l.pid AS pid, l.command AS command, toString(l.since) AS since,
       toString(l.expires_at) AS expires_at, l.expires_at <= datetime() AS expired
"""

# Inside a write transaction of the lock's holder, last: checks that the caller still holds the lock (a
# write on its node, so a takeover waits for this commit and the next check sees it) and moves the data
# version on, so readers' caches see the commit (graph/versions.py). No row: the lock was taken over, and
# the caller raises, which rolls the whole transaction back.
FENCED_BUMP: LiteralString = """
MATCH (l:WriterLock {name: $name})
WHERE l.token = $token
SET l.committed_at = datetime()
WITH l LIMIT 1
MERGE (m:Meta {key: 'graph'})
SET m.data_version = coalesce(m.data_version, 0) + 1, m.loaded_at = datetime()
RETURN m.data_version AS data_version
"""

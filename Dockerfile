# The Weft API and loader image (used by docker-compose.yml). .dockerignore keeps local state out
# of the context; tests/packaging/test_wheel_install.py replays the final stage's COPY lines and
# `pip install .` without Docker, installs that wheel into a clean virtualenv and serves from it.
FROM node:20-slim AS web
WORKDIR /app
COPY web/package.json web/package-lock.json web/copy-vendor.mjs web/
COPY server/static server/static
RUN npm ci --prefix web --omit=dev

FROM python:3.11-slim
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
COPY pyproject.toml README.md ./
# the build backend (pyproject.toml): setuptools, refusing a wheel without the web stage's vendor files
COPY build_backend build_backend
COPY graph graph
COPY schema schema
COPY loaders loaders
COPY server server
COPY queries queries
COPY weft weft
COPY demo demo
COPY --from=web /app/server/static server/static
RUN pip install .
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --retries=5 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/health').status == 200 else 1)"
CMD ["weft", "serve", "--host", "0.0.0.0", "--port", "8000"]

# The laundry site as one image: the release binary and the built frontend.
# Build: docker build -t laundry .   Run with PostgreSQL: docker compose up (docker-compose.yml).

FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN node build.mjs

FROM rust:1-bookworm AS server
# cmake and libsimde-dev build the JavaScript engine (deno_core on QuickJS) without downloads.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libsqlite3-dev libpq-dev cmake libsimde-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Cargo.toml Cargo.lock rust-toolchain.toml rustfmt.toml clippy.toml ./
COPY .cargo .cargo
COPY cmake cmake
COPY ssr-runtime ssr-runtime
COPY server server
COPY migrations migrations
COPY templates templates
RUN cargo build --release --locked -p laundry

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libsqlite3-0 libpq5 curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /app --shell /usr/sbin/nologin laundry
WORKDIR /app
COPY --from=server /src/target/release/laundry /usr/local/bin/laundry
COPY --from=frontend /src/frontend/dist /app/frontend/dist
RUN mkdir -p /app/data /app/cache && chown laundry /app/data /app/cache
USER laundry
ENV LAUNDRY_ADDR=0.0.0.0:8080 \
    LAUNDRY_FRONTEND_DIR=/app/frontend/dist \
    LAUNDRY_SSR_BYTECODE_CACHE=/app/cache \
    DATABASE_URL=sqlite:///app/data/laundry.db
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
CMD ["laundry", "serve"]

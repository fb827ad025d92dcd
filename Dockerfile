# A minimal image: the static nodecast binary on distroless. Kustomize rendering needs `kubectl`
# or `kustomize` on PATH, which this image does not carry: mount one, or run with --no-render.
#   docker build -t nodecast . && docker run --rm -v "$PWD:/repo" -w /repo nodecast check
FROM rust:1.85-alpine AS build
RUN apk add --no-cache musl-dev=~1 make=~4 perl=~5
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin nodecast \
    && install -m 0755 target/release/nodecast /nodecast

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /nodecast /usr/local/bin/nodecast
ENTRYPOINT ["/usr/local/bin/nodecast"]
CMD ["check", "--help"]

# gradstep web app image: `docker build -t gradstep .` then `docker run -p 8000:8000 gradstep`.
# Two stages: the first builds a virtual environment, the second copies only that venv onto a
# clean slim base, so pip's build environment, caches and wheels never reach the final image.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /opt/gradstep
WORKDIR /src
# The packages first, from the lock: exact versions, each wheel checked against its sha256
# (dev/lock_image.py writes the lock from pyproject.toml and ./dev.sh lint checks that they
# agree). --no-deps: the lock is the whole set, so nothing is resolved afresh at build time.
# Its own layer, so a change to the code alone reuses it.
COPY image-requirements.txt ./
RUN /opt/gradstep/bin/pip install --require-hashes --no-deps --only-binary=:all: \
        -r image-requirements.txt
# Only what a non-editable install needs; .dockerignore keeps the rest of the checkout out.
COPY pyproject.toml setup.py README.md LICENSE ./
COPY gradstep/ gradstep/
COPY engine/ engine/
COPY runner/ runner/
COPY app/ app/
COPY templates/ templates/
COPY static/ static/
# Every dependency ships binary wheels (pygraphviz's bundles Graphviz), so no compiler is
# needed. gradstep itself is built with the locked setuptools already in the venv
# (--no-build-isolation) and nothing from the index (--no-index); `pip check` fails the build
# when the lock misses a package something needs. setuptools and pip are removed afterwards:
# the running app never builds or installs anything.
RUN /opt/gradstep/bin/pip install --no-deps --no-build-isolation --no-index . \
    && /opt/gradstep/bin/pip check \
    && /opt/gradstep/bin/pip uninstall --yes setuptools pip \
    && /opt/gradstep/bin/gradstep --version


FROM ${PYTHON_IMAGE}

# Where the image was built from: `--build-arg VERSION=<gradstep --version>`,
# `--build-arg REVISION=$(git rev-parse HEAD)`, `--build-arg SOURCE=<repository URL>`;
# "unknown" says a build did not pass one.
ARG VERSION=unknown
ARG REVISION=unknown
ARG SOURCE=unknown
LABEL org.opencontainers.image.title="gradstep" \
      org.opencontainers.image.description="See PyTorch autograd work, step by step" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}"

# Runtime libraries that pygraphviz's wheel links against but, as manylinux allows, does not
# bundle (X11 client libraries and GLib, for its cairo and pango plugins); libseccomp, which
# the sandbox loads through pyseccomp; and fonts so that Graphviz measures labels the way it
# does on a Debian desktop (Helvetica maps to Liberation Sans).
# tests/foundation/test_docker.py checks this list against the installed packages.
# Versions are not pinned: the base image pins the Debian release, and Debian replaces exact
# versions with security updates, so pins would only break rebuilds.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install --yes --no-install-recommends \
        libx11-6 libxext6 libxrender1 libglib2.0-0 libseccomp2 \
        fontconfig-config fonts-liberation \
    && rm -rf /var/lib/apt/lists/*

# A fixed numeric id, so Kubernetes' runAsNonRoot can verify it without a passwd lookup.
RUN groupadd --system --gid 10001 gradstep \
    && useradd --system --uid 10001 --gid gradstep --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin gradstep

COPY --from=build /opt/gradstep /opt/gradstep

# Threads: each request runs one small program in a forked sandbox worker; BLAS thread pools
# inside every worker would only fight over the container's CPUs.
# Strict sandbox: the image is what goes public, so it refuses to start (exit 1, saying which)
# when seccomp or Landlock cannot be applied, instead of serving on the other layers alone.
ENV PATH=/opt/gradstep/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    OPENBLAS_NUM_THREADS=1 \
    OMP_NUM_THREADS=1 \
    MKL_NUM_THREADS=1 \
    GRADSTEP_HOST=0.0.0.0 \
    GRADSTEP_PORT=8000 \
    GRADSTEP_WEB_WORKERS=2 \
    GRADSTEP_SANDBOX_STRICT=1

USER 10001:10001
WORKDIR /tmp
EXPOSE 8000

# python, not curl: the slim base has no curl. The port follows GRADSTEP_PORT.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('GRADSTEP_PORT', '8000'), timeout=4)"]

CMD ["gradstep", "serve"]

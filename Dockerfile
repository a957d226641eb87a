# xs2a-conformance as a container image: the tool with Node 20, Debian's headless Chromium (the SCA browser)
# and NSS's certutil (the browser's trust in the bank's CA), for a pipeline with no Node of its own.
#
#   docker build -t xs2a-conformance .
#   docker run --rm -v "$PWD:/work" -e SANDBOX_BASE_URL xs2a-conformance doctor --target sandbox
#   docker run --rm -v "$PWD:/work" -e SANDBOX_BASE_URL xs2a-conformance run --target sandbox --require conformant
#
# It works in /work: the bank's repository mounted there, its targets.yaml read and reports/ written there.
# It runs as root, where Chromium cannot keep its sandbox (the tool then starts it without): the reports are
# root's, 0600, as every file the tool writes is its user's alone. Use it as a CI job's image (GitHub Actions
# `container:`, GitLab `image:`), whose later steps (the artefact upload) run as the same user.
FROM node:20-bookworm-slim

RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium-headless-shell libnss3-tools ca-certificates \
  && rm -rf /var/lib/apt/lists/*
# The first place the tool looks for Chromium (lib/sca/browser.ts), named for anyone reading the image.
ENV CHROMIUM_PATH=/usr/bin/chromium-headless-shell

# The tool outside any node_modules folder, so that Playwright loads its TypeScript where it is; its
# dependencies as the lock file has them, without the project's development tools.
WORKDIR /opt/xs2a-conformance
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin/ bin/
COPY lib/ lib/
COPY suites/ suites/
COPY reference/ reference/
COPY examples/ examples/
COPY playwright.config.ts tsconfig.json targets.yaml ./
# The command's bundle (lib/cli/command-bundle.js) made once, here, rather than at every container's start.
RUN ln -s /opt/xs2a-conformance/bin/xs2a-conformance.js /usr/local/bin/xs2a-conformance \
  && xs2a-conformance --version

WORKDIR /work
ENTRYPOINT ["xs2a-conformance"]
CMD ["--help"]

#!/bin/sh
# Debian's Chromium on the CPUs named by BENCH_BROWSER_CPUS (taskset's list syntax, e.g. "1"):
# every process it starts (browser, GPU, renderers) inherits them. See playwright.bench.config.ts.
exec taskset -c "${BENCH_BROWSER_CPUS:?}" /usr/bin/chromium "$@"

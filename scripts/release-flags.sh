# Sourced by the scripts that build the tools in release (demo, install, benchmark, run-dce-validate): the flags of
# that build, the same in each, so that one build serves them all (dce-validate builds its companions with the same
# flags: Sources/DCECommandLine/Companion.swift).
#
# On Linux the Swift runtime and Foundation are linked into each executable (--static-swift-stdlib): the installed
# tools run without the toolchain's libraries, and one small file is validated, start to exit, in 13.7 ms instead of
# 18.2 (no dynamic loading and binding of 19 libraries; docs/performance.md). macOS has its Swift runtime in the OS.
release_flags=(-c release)
if [ "$(uname -s)" = Linux ]; then
    release_flags+=(--static-swift-stdlib)
fi

# CMake toolchain file for the C code built by dependencies (.cargo/config.toml names it).
#
# deno_core's QuickJS backend (the v8x crate) builds WAMR with CMake, and WAMR's build would clone
# simde from GitHub with FetchContent. This build uses Debian's header-only simde (libsimde-dev,
# under /usr/include/simde) instead and forbids every download, so a missing package fails the
# build with a clear message rather than reaching for the network.
set(FETCHCONTENT_FULLY_DISCONNECTED ON CACHE BOOL "No downloads during the build" FORCE)
set(FETCHCONTENT_SOURCE_DIR_SIMDE /usr/include CACHE PATH "simde from libsimde-dev" FORCE)
if(NOT EXISTS /usr/include/simde/simde-common.h)
  message(FATAL_ERROR "simde headers not found: install Debian's libsimde-dev (apt-get install libsimde-dev)")
endif()

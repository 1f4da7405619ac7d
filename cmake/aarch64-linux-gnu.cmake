# Cross build for 64-bit ARM (Raspberry Pi 3/4/5 with a 64-bit OS) with Debian's cross
# tool chain (crossbuild-essential-arm64) and the multiarch :arm64 -dev packages
# (dpkg --add-architecture arm64; tools/debian-packages-arm64.txt). The programs and
# tests run on the build machine under qemu-user: ctest, gtest_discover_tests and the
# manual pages (help2man) go through CMAKE_CROSSCOMPILING_EMULATOR.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The multiarch libraries live in the build machine's own /usr/lib/aarch64-linux-gnu, so
# the root is the normal one: libraries and headers are searched there, programs (protoc,
# help2man) are the build machine's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# The programs run with the multiarch libraries (libc6:arm64 and the rest, the same Debian
# packages a Pi has), found through /lib/ld-linux-aarch64.so.1 as binfmt_misc runs them,
# not with `-L /usr/aarch64-linux-gnu`: the cross tool chain's own libc there (another
# Debian revision) makes qemu-user 7.2 spin for ever in a program's first pthread_create.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)

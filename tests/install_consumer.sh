#!/bin/sh
# install_consumer.sh SOURCE BUILD WORK: installs the build into WORK/prefix, then builds
# and runs a program against it twice: through find_package(gridsync) and through
# pkg-config --static. Both must print the example's success line.
set -eu
src=$1 build=$2 work=$3
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer"
pc="$work/prefix/lib/pkgconfig"
[ -d "$pc" ] || pc=$(dirname "$(find "$work/prefix" -name gridsync.pc | head -1)")
cc -std=c11 "$src/examples/cpu_hello.c" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs --static gridsync) \
    -o "$work/hello_pc"
"$work/hello_pc"

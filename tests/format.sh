#!/usr/bin/env bash
# tests/format.sh SRC - fails when a C, C++ or CUDA source or header of include/ src/
# tools/ apps/ examples/ tests/ differs from what clang-format makes of it under
# SRC/.clang-format. Skips (77) without clang-format 14: other versions format some
# constructs differently, so their verdict would not be the style's. OpenCL .cl/.clh
# files are left out (clang-format does not take them as C).
set -u
src=$1
fmt=""
for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null 2>&1 && "$c" --version | grep -q "version 14\."; then
        fmt=$c
        break
    fi
done
if [ -z "$fmt" ]; then
    echo "no clang-format 14 (Debian 12: apt-get install clang-format): skipped"
    exit 77
fi
cd "$src" || exit 1
dirs=(include src tools apps examples tests)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard -- "${dirs[@]}" |
        grep -E '\.(c|h|cu|cuh|cpp|hpp)$')
else
    mapfile -t files < <(find "${dirs[@]}" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \
        -o -name '*.cuh' -o -name '*.cpp' -o -name '*.hpp' \) | sort)
fi
if [ ${#files[@]} -eq 0 ]; then
    echo "no sources found under $src" >&2
    exit 1
fi
if ! "$fmt" --dry-run --Werror "${files[@]}"; then
    echo "format: run $fmt -i on the files above (.clang-format)" >&2
    exit 1
fi
echo "format: ${#files[@]} files as .clang-format says"

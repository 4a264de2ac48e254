# bench/micro/sweep_wrap.awk: reads `cuobjdump -sass` of the Jacobi micro-benchmarks and
# prints, for each kernel, whether the compiler wrapped the sweep loop (the loop around
# the `FMUL ..., 0.25` of apps/jacobi's 5-point update) in a convergence barrier: a BSSY
# before the loop whose BSYNC target lies past the loop's backward branch. grid.sync()'s
# kernel and hand-flip's have the wrap, flip's does not (bench/results/h200/twelfth/
# sass_*.txt); whether that goes with the sweeps' speed is what it is for. mawk-safe.
function hex(s,    i, c, v) {
    s = tolower(s); sub(/^0x/, "", s); v = 0
    for (i = 1; i <= length(s); ++i) {
        c = index("0123456789abcdef", substr(s, i, 1))
        if (c == 0) break
        v = v * 16 + c - 1
    }
    return v
}
function report() {
    if (name == "" || fmul < 0) return
    # the loop: the first backward branch after the FMUL that jumps to before it
    start = -1; stop = -1
    for (k = 1; k <= n; ++k)
        if (addr[k] > fmul && op[k] ~ /BRA/ && tgt[k] >= 0 && tgt[k] < fmul) { start = tgt[k]; stop = addr[k]; break }
    wrapped = "no"
    for (k = 1; k <= n; ++k)
        if (op[k] ~ /BSSY/ && addr[k] < start && addr[k] >= start - 256 && tgt[k] > stop) wrapped = "yes"
    printf "%-70s sweep loop 0x%x-0x%x wrapped in BSSY/BSYNC: %s\n", name, start, stop, wrapped
}
/Function : / { report(); name = $NF; n = 0; fmul = -1; next }
/\/\*[0-9a-f]+\*\// {
    if (!match($0, /\/\*[0-9a-f]+\*\//)) next
    a = hex(substr($0, RSTART + 2, RLENGTH - 4))
    line = substr($0, RSTART + RLENGTH)
    sub(/\/\* 0x[0-9a-f]+ \*\/.*/, "", line)
    ++n; addr[n] = a; op[n] = line; tgt[n] = -1
    if (match(line, /0x[0-9a-f]+ *;/)) tgt[n] = hex(substr(line, RSTART, RLENGTH))
    if (line ~ /FMUL/ && line ~ /0\.25/) fmul = a
}
END { report() }

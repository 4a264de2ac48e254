# bench/micro/sweep_loop.awk: reads `cuobjdump -sass` of the Jacobi micro-benchmarks and
# prints, for each kernel, its sweep loops (each loop around an `FMUL ..., 0.25` of
# apps/jacobi's 5-point update; the split form has two): their instructions, the fixed stall cycles the compiler
# wrote into their control words (bits 41-44 of each instruction's second word), and
# whether a convergence barrier (a BSSY before the loop whose BSYNC lies past its
# backward branch) wraps it.
# Why the stalls: at 1 and 2 blocks of 256 per SM a scheduler holds 2 or 4 warps, each
# iteration of the loop waits for its loads and then issues its instructions one after
# the other, so every cycle of fixed stall lengthens the sweep. Nsight Compute put the
# library's flip kernel's extra time at 4096^2 in the loop's "wait" stalls (+7%,
# bench/results/h100/thirteenth/); its loop carries 70 cycles where grid.sync()'s
# carries 66. The wrap was the twelfth session's suspect: it does not go with the speed
# (thirteenth/sweep_loop.txt). mawk-safe (no strtonum).
function hex(s,    i, c, v) {
    s = tolower(s); sub(/^0x/, "", s); v = 0
    for (i = 1; i <= length(s); ++i) {
        c = index("0123456789abcdef", substr(s, i, 1))
        if (c == 0) break
        v = v * 16 + c - 1
    }
    return v
}
function report(    k, j, start, stop, wrapped, insts, stalls, last) {
    if (name == "") return
    last = -1
    for (j = 1; j <= n; ++j) {
        if (op[j] !~ /FMUL/ || op[j] !~ /0\.25/) continue
        # its loop: the first backward branch after the FMUL that jumps to before it
        start = -1; stop = -1
        for (k = j; k <= n; ++k)
            if (op[k] ~ /BRA/ && tgt[k] >= 0 && tgt[k] < addr[j]) { start = tgt[k]; stop = addr[k]; break }
        if (start < 0 || start == last) continue
        last = start
        wrapped = "no"; insts = 0; stalls = 0
        for (k = 1; k <= n; ++k) {
            if (op[k] ~ /BSSY/ && addr[k] < start && addr[k] >= start - 256 && tgt[k] > stop) wrapped = "yes"
            if (addr[k] >= start && addr[k] <= stop) { ++insts; stalls += stall[k] }
        }
        printf "%-70s loop 0x%x-0x%x insts %d stall_cycles %d wrapped %s\n", name, start, stop, insts, stalls, wrapped
    }
}
/Function : / { report(); name = $NF; n = 0; want_ctrl = 0; next }
# an instruction's second line: its control word; the stall count is bits 41-44, i.e.
# bits 1-4 of the value of hex digits 1-6 (bits 40-63) of the 16-digit word
want_ctrl && /^[ \t]*\/\* 0x[0-9a-f]+ \*\/[ \t]*$/ {
    w = $0; sub(/^[ \t]*\/\* 0x/, "", w); sub(/ .*/, "", w)
    stall[n] = int(hex(substr(w, 1, 6)) / 2) % 16
    want_ctrl = 0
    next
}
/\/\*[0-9a-f]+\*\// {
    if (!match($0, /\/\*[0-9a-f]+\*\//)) next
    a = hex(substr($0, RSTART + 2, RLENGTH - 4))
    line = substr($0, RSTART + RLENGTH)
    sub(/\/\* 0x[0-9a-f]+ \*\/.*/, "", line)
    ++n; addr[n] = a; op[n] = line; tgt[n] = -1; stall[n] = 0; want_ctrl = 1
    if (match(line, /0x[0-9a-f]+ *;/)) tgt[n] = hex(substr(line, RSTART, RLENGTH))
}
END { report() }

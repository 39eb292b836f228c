#!/usr/bin/env python3
"""What ptxas -arch=sm_90 makes of each fp8 mma form (the evidence for exec/mmafp8.c's sequence).

No disassembler is needed: each form is put in a small kernel, compiled with ptxas, and the 128-bit
instructions of the cubin's .text section are listed by their opcode field (the low 12 bits). The
names are read from the pattern and from compiling known PTX: 0x23e converts a register's fp8 pair to
f16x2 (F2FP; bits 88-89 of the word say which half, low = 2, high = 3; bit 73 e4m3 rather than e5m2),
0x23c is HMMA (its accumulator register in bits 64-71, 0xff = RZ, zero; bit 75 set for m16n8k16, clear
for m16n8k8, bit 76 f32 rather than f16 accumulation: as the k and C of each form ask), 0x221 FADD (bit 80, the .FTZ
that add.ftz.f32 sets, is clear), 0x230 HADD2.

    python3 scripts/mma_fp8_sass.py [PTXAS]
"""
import os
import struct
import subprocess
import sys
import tempfile

NAMES = {0x23E: "F2FP", 0x23C: "HMMA", 0x221: "FADD", 0x230: "HADD2"}


def text_section(cubin):
    b = open(cubin, "rb").read()
    shoff = struct.unpack_from("<Q", b, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    secs = [struct.unpack_from("<IIQQQQ", b, shoff + i * shentsize) for i in range(shnum)]
    strtab = secs[shstrndx][4]
    for name, _typ, _flags, _addr, off, size in secs:
        n = b[strtab + name: b.index(b"\0", strtab + name)].decode()
        if n.startswith(".text."):
            return [struct.unpack_from("<QQ", b, off + i) for i in range(0, size, 16)]
    return []


def form_kernel(form):
    shape, d, a, b, c = form
    regs_a = "{%r0,%r1,%r2,%r3}" if shape == "m16n8k32" else "{%r0,%r1}"
    regs_b = "{%r4,%r5}" if shape == "m16n8k32" else "{%r4}"
    regs_d = "{%f0,%f1,%f2,%f3}" if d == "f32" else "{%r8,%r9}"
    regs_c = "{%f4,%f5,%f6,%f7}" if c == "f32" else "{%r10,%r11}"
    store = ("st.global.v4.f32 [%a+64], {%f0,%f1,%f2,%f3};" if d == "f32"
             else "st.global.v2.b32 [%a+96], {%r8,%r9};")
    return (".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p) {\n"
            " .reg .b32 %r<16>; .reg .f32 %f<8>; .reg .u64 %a;\n ld.param.u64 %a, [p];\n"
            " ld.global.v4.b32 {%r0,%r1,%r2,%r3}, [%a];\n ld.global.v4.b32 {%r4,%r5,%r10,%r11}, [%a+16];\n"
            " ld.global.v4.f32 {%f4,%f5,%f6,%f7}, [%a+32];\n"
            " mma.sync.aligned." + ".".join([shape, "row", "col", d, a, b, c]) + " " +
            ", ".join([regs_d, regs_a, regs_b, regs_c]) + ";\n " + store + "\n ret;\n}\n")


def describe(lo, hi):
    op = lo & 0xFFF
    name = NAMES[op]
    dst, src_a, src_b = lo >> 16 & 0xFF, lo >> 24 & 0xFF, lo >> 32 & 0xFF
    if op == 0x23E:
        half = {2: "low", 3: "high"}.get(hi >> 24 & 3, "?")
        kind = "e4m3" if hi >> 9 & 1 else "e5m2"
        return "%s R%d = %s half of R%d (%s)" % (name, dst, half, src_b, kind)
    if op == 0x23C:
        acc = hi & 0xFF
        shape = ".16816" if hi >> 11 & 1 else ".1688"
        kind = ".F32" if hi >> 12 & 1 else ".F16"
        return "%s%s%s R%d = A R%d, B R%d, C %s" % (name, shape, kind, dst, src_a, src_b,
                                                  "RZ" if acc == 0xFF else "R%d" % acc)
    return "%s R%d = R%d + R%d%s" % (name, dst, src_a, src_b, " (.FTZ)" if hi >> 16 & 1 else "")


def main():
    ptxas = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda/bin/ptxas"
    with tempfile.TemporaryDirectory() as tmp:
        for shape in ("m16n8k32", "m16n8k16"):
            for cd in ("f32", "f16"):
                for a in ("e4m3", "e5m2"):
                    for b in ("e4m3", "e5m2"):
                        form = (shape, cd, a, b, cd)
                        src, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
                        open(src, "w").write(form_kernel(form))
                        r = subprocess.run([ptxas, "-arch=sm_90", src, "-o", cubin], capture_output=True, text=True)
                        print(".".join([shape, cd, a, b, cd]))
                        if r.returncode:
                            print("   refused:", r.stderr.strip().splitlines()[0])
                            continue
                        for lo, hi in text_section(cubin):
                            if lo & 0xFFF in NAMES:
                                print("   " + describe(lo, hi))


if __name__ == "__main__":
    main()

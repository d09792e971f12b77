; int_widths.ll - a kernel taking and computing with i1, i8, i16 and i64
; values: predicate parameters (passed as .u8), 16-bit arithmetic and stores,
; 64-bit multiply-high / shifts, selects and zero/sign extension.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @widths(i1 zeroext %flag, i16 signext %h, i64 %big, i8 %b, i16 addrspace(1)* %o16, i64 addrspace(1)* %o64, i8 addrspace(1)* %o8) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t16 = trunc i32 %tid to i16
  %h2 = mul i16 %h, %t16
  %h3 = xor i16 %h2, 21845
  %h4 = ashr i16 %h3, 3
  %hsel = select i1 %flag, i16 %h4, i16 %h
  %t64 = zext i32 %tid to i64
  %p16 = getelementptr inbounds i16, i16 addrspace(1)* %o16, i64 %t64
  store i16 %hsel, i16 addrspace(1)* %p16, align 2
  %bw = zext i64 %big to i128
  %tw = zext i32 %tid to i128
  %prod = mul i128 %bw, %tw
  %hi128 = lshr i128 %prod, 64
  %hi = trunc i128 %hi128 to i64
  %lo = trunc i128 %prod to i64
  %mix = xor i64 %hi, %lo
  %sh = shl i64 %mix, 13
  %neg = icmp slt i64 %sh, 0
  %hs = sext i16 %hsel to i64
  %r64 = select i1 %neg, i64 %hs, i64 %sh
  %p64 = getelementptr inbounds i64, i64 addrspace(1)* %o64, i64 %t64
  store i64 %r64, i64 addrspace(1)* %p64, align 8
  %odd = trunc i32 %tid to i1
  %both = and i1 %odd, %flag
  %bb = add i8 %b, 1
  %bsel = select i1 %both, i8 %bb, i8 -1
  %p8 = getelementptr inbounds i8, i8 addrspace(1)* %o8, i64 %t64
  store i8 %bsel, i8 addrspace(1)* %p8, align 1
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i1, i16, i64, i8, i16 addrspace(1)*, i64 addrspace(1)*, i8 addrspace(1)*)* @widths, !"kernel", i32 1}

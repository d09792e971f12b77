; stencil1d.ll - 3-point 1-D stencil: out[i] = a*in[i-1] + b*in[i] + c*in[i+1]
; with a bounds check, so the PTX has a guarded branch and address arithmetic.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define void @stencil3(float addrspace(1)* noalias %out, float addrspace(1)* noalias readonly %in, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %lo = icmp sgt i32 %i, 0
  %nm1 = add i32 %n, -1
  %hi = icmp slt i32 %i, %nm1
  %ok = and i1 %lo, %hi
  br i1 %ok, label %body, label %exit

body:
  %i64 = sext i32 %i to i64
  %pc = getelementptr inbounds float, float addrspace(1)* %in, i64 %i64
  %pl = getelementptr inbounds float, float addrspace(1)* %pc, i64 -1
  %pr = getelementptr inbounds float, float addrspace(1)* %pc, i64 1
  %l = load float, float addrspace(1)* %pl, align 4
  %c = load float, float addrspace(1)* %pc, align 4
  %r = load float, float addrspace(1)* %pr, align 4
  %t0 = fmul float %l, 2.500000e-01
  %t1 = fmul float %c, 5.000000e-01
  %t2 = fmul float %r, 2.500000e-01
  %s0 = fadd float %t0, %t1
  %s1 = fadd float %s0, %t2
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %i64
  store float %s1, float addrspace(1)* %po, align 4
  br label %exit

exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @stencil3, !"kernel", i32 1}

; shared_transpose.ll - 32x33 shared-memory tile transpose (padding against
; bank conflicts), 2-D indices, two barriers-free phases separated by bar.sync,
; plus an extern dynamic shared array used as scratch.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [32 x [33 x float]] undef, align 4
@dyn = external addrspace(3) global [0 x i32], align 16

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare void @llvm.nvvm.barrier0()

define void @transpose(float addrspace(1)* noalias %out, float addrspace(1)* noalias readonly %in, i32 %n) {
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %bx32 = shl i32 %bx, 5
  %by32 = shl i32 %by, 5
  %x = add i32 %bx32, %tx
  %y = add i32 %by32, %ty
  %row = mul i32 %y, %n
  %idx = add i32 %row, %x
  %idx64 = zext i32 %idx to i64
  %pin = getelementptr inbounds float, float addrspace(1)* %in, i64 %idx64
  %v = load float, float addrspace(1)* %pin, align 4
  %tx64 = zext i32 %tx to i64
  %ty64 = zext i32 %ty to i64
  %ts = getelementptr inbounds [32 x [33 x float]], [32 x [33 x float]] addrspace(3)* @tile, i64 0, i64 %ty64, i64 %tx64
  store float %v, float addrspace(3)* %ts, align 4
  %dp = getelementptr inbounds [0 x i32], [0 x i32] addrspace(3)* @dyn, i64 0, i64 %tx64
  store i32 %tx, i32 addrspace(3)* %dp, align 4
  call void @llvm.nvvm.barrier0()
  %tl = getelementptr inbounds [32 x [33 x float]], [32 x [33 x float]] addrspace(3)* @tile, i64 0, i64 %tx64, i64 %ty64
  %w = load float, float addrspace(3)* %tl, align 4
  %d = load i32, i32 addrspace(3)* %dp, align 4
  %df = sitofp i32 %d to float
  %wd = fadd float %w, %df
  %ox = add i32 %by32, %tx
  %oy = add i32 %bx32, %ty
  %orow = mul i32 %oy, %n
  %oidx = add i32 %orow, %ox
  %oidx64 = zext i32 %oidx to i64
  %pout = getelementptr inbounds float, float addrspace(1)* %out, i64 %oidx64
  store float %wd, float addrspace(1)* %pout, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @transpose, !"kernel", i32 1}

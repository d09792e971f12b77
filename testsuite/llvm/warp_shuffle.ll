; warp_shuffle.ll - warp reduction with llvm.nvvm.shfl.sync.down.f32 in an
; unrolled butterfly, vote.sync ballot, and a lane-0 store.
; LLC-FLAGS: -mcpu=sm_80 -mattr=+ptx71
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)

define void @warp_sum(float addrspace(1)* %out, i32 addrspace(1)* %masks, float addrspace(1)* readonly %in) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds float, float addrspace(1)* %in, i64 %t64
  %v0 = load float, float addrspace(1)* %p, align 4
  %s16 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v0, i32 16, i32 31)
  %v1 = fadd float %v0, %s16
  %s8 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v1, i32 8, i32 31)
  %v2 = fadd float %v1, %s8
  %s4 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v2, i32 4, i32 31)
  %v3 = fadd float %v2, %s4
  %s2 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v3, i32 2, i32 31)
  %v4 = fadd float %v3, %s2
  %s1 = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v4, i32 1, i32 31)
  %v5 = fadd float %v4, %s1
  %pos = fcmp ogt float %v0, 0.000000e+00
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %pos)
  %x = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %ballot, i32 1, i32 31)
  %is0 = icmp eq i32 %lane, 0
  br i1 %is0, label %write, label %exit
write:
  %w = lshr i32 %tid, 5
  %w64 = zext i32 %w to i64
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %w64
  store float %v5, float addrspace(1)* %po, align 4
  %pm = getelementptr inbounds i32, i32 addrspace(1)* %masks, i64 %w64
  store i32 %x, i32 addrspace(1)* %pm, align 4
  br label %exit
exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*, float addrspace(1)*)* @warp_sum, !"kernel", i32 1}

; reduce_shared.ll - block sum reduction in shared memory: a static
; addrspace(3) array, bar.sync between steps, a halving loop and a final
; atomic add of the block result to global memory.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@partial = internal addrspace(3) global [256 x float] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

define void @block_sum(float addrspace(1)* noalias %result, float addrspace(1)* noalias readonly %in, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = shl i32 %bid, 8
  %i = add i32 %base, %tid
  %inb = icmp slt i32 %i, %n
  br i1 %inb, label %load, label %store0

load:
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds float, float addrspace(1)* %in, i64 %i64
  %v = load float, float addrspace(1)* %p, align 4
  br label %store0

store0:
  %x = phi float [ %v, %load ], [ 0.000000e+00, %entry ]
  %tid64 = zext i32 %tid to i64
  %sp = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @partial, i64 0, i64 %tid64
  store float %x, float addrspace(3)* %sp, align 4
  call void @llvm.nvvm.barrier0()
  br label %loop

loop:
  %s = phi i32 [ 128, %store0 ], [ %s.next, %latch ]
  %active = icmp ult i32 %tid, %s
  br i1 %active, label %add, label %latch

add:
  %j = add i32 %tid, %s
  %j64 = zext i32 %j to i64
  %op = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @partial, i64 0, i64 %j64
  %a = load float, float addrspace(3)* %sp, align 4
  %b = load float, float addrspace(3)* %op, align 4
  %c = fadd float %a, %b
  store float %c, float addrspace(3)* %sp, align 4
  br label %latch

latch:
  call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %more = icmp ne i32 %s.next, 0
  br i1 %more, label %loop, label %done

done:
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %publish, label %exit

publish:
  %p0 = getelementptr inbounds [256 x float], [256 x float] addrspace(3)* @partial, i64 0, i64 0
  %tot = load float, float addrspace(3)* %p0, align 4
  %old = atomicrmw fadd float addrspace(1)* %result, float %tot monotonic
  br label %exit

exit:
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @block_sum, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32)* @block_sum, !"reqntidx", i32 256}

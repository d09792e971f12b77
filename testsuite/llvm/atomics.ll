; atomics.ll - global and shared atomics: add, min, max, xchg, and/or/xor,
; compare-and-swap loop (float max via cmpxchg), 64-bit add.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@counters = internal addrspace(3) global [32 x i32] undef, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define void @atomic_mix(i32 addrspace(1)* %g, i64 addrspace(1)* %g64, float addrspace(1)* %fmax, float %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %l64 = zext i32 %lane to i64
  %sp = getelementptr inbounds [32 x i32], [32 x i32] addrspace(3)* @counters, i64 0, i64 %l64
  store i32 0, i32 addrspace(3)* %sp, align 4
  call void @llvm.nvvm.barrier0()
  %o1 = atomicrmw add i32 addrspace(3)* %sp, i32 1 monotonic
  call void @llvm.nvvm.barrier0()
  %cnt = load i32, i32 addrspace(3)* %sp, align 4
  %g1 = getelementptr inbounds i32, i32 addrspace(1)* %g, i64 1
  %g2 = getelementptr inbounds i32, i32 addrspace(1)* %g, i64 2
  %g3 = getelementptr inbounds i32, i32 addrspace(1)* %g, i64 3
  %g4 = getelementptr inbounds i32, i32 addrspace(1)* %g, i64 4
  %g5 = getelementptr inbounds i32, i32 addrspace(1)* %g, i64 5
  %a0 = atomicrmw add i32 addrspace(1)* %g, i32 %cnt monotonic
  %a1 = atomicrmw min i32 addrspace(1)* %g1, i32 %tid monotonic
  %a2 = atomicrmw umax i32 addrspace(1)* %g2, i32 %tid monotonic
  %a3 = atomicrmw xchg i32 addrspace(1)* %g3, i32 %a0 monotonic
  %a4 = atomicrmw or i32 addrspace(1)* %g4, i32 %a1 monotonic
  %a5 = atomicrmw xor i32 addrspace(1)* %g5, i32 %a2 monotonic
  %w = zext i32 %a5 to i64
  %a6 = atomicrmw add i64 addrspace(1)* %g64, i64 %w monotonic
  %fbits.p = bitcast float addrspace(1)* %fmax to i32 addrspace(1)*
  %init = load i32, i32 addrspace(1)* %fbits.p, align 4
  br label %cas

cas:
  %cur = phi i32 [ %init, %entry ], [ %seen, %cas ]
  %curf = bitcast i32 %cur to float
  %gt = fcmp ogt float %v, %curf
  %newf = select i1 %gt, float %v, float %curf
  %new = bitcast float %newf to i32
  %pair = cmpxchg i32 addrspace(1)* %fbits.p, i32 %cur, i32 %new monotonic monotonic
  %seen = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  br i1 %ok, label %exit, label %cas

exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, i64 addrspace(1)*, float addrspace(1)*, float)* @atomic_mix, !"kernel", i32 1}

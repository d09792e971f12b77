; loop_saxpy.ll - grid-stride loop (y = a*x + y) with a loop-carried index,
; an exit test at the top, and a 64-bit induction variable.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

define void @saxpy_grid(i64 %n, float %a, float addrspace(1)* noalias readonly %x, float addrspace(1)* noalias %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %gdim = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b0 = mul i32 %bid, %bdim
  %start32 = add i32 %b0, %tid
  %stride32 = mul i32 %bdim, %gdim
  %start = zext i32 %start32 to i64
  %stride = zext i32 %stride32 to i64
  br label %head

head:
  %i = phi i64 [ %start, %entry ], [ %i.next, %body ]
  %cont = icmp ult i64 %i, %n
  br i1 %cont, label %body, label %exit

body:
  %px = getelementptr inbounds float, float addrspace(1)* %x, i64 %i
  %py = getelementptr inbounds float, float addrspace(1)* %y, i64 %i
  %vx = load float, float addrspace(1)* %px, align 4
  %vy = load float, float addrspace(1)* %py, align 4
  %ax = fmul float %a, %vx
  %r = fadd float %ax, %vy
  store float %r, float addrspace(1)* %py, align 4
  %i.next = add i64 %i, %stride
  br label %head

exit:
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (i64, float, float addrspace(1)*, float addrspace(1)*)* @saxpy_grid, !"kernel", i32 1}
!1 = !{void (i64, float, float addrspace(1)*, float addrspace(1)*)* @saxpy_grid, !"minctasm", i32 2}
!2 = !{void (i64, float, float addrspace(1)*, float addrspace(1)*)* @saxpy_grid, !"maxntidx", i32 256}

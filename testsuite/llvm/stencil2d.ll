; stencil2d.ll - 5-point 2-D Jacobi stencil on a row-major grid using a
; 2-D thread index (tid.x/tid.y, ctaid.x/ctaid.y), with .maxntid metadata.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()

define void @jacobi5(float addrspace(1)* noalias %out, float addrspace(1)* noalias readonly %in, i32 %w, i32 %h) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %dx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %dy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %x0 = mul i32 %bx, %dx
  %x = add i32 %x0, %tx
  %y0 = mul i32 %by, %dy
  %y = add i32 %y0, %ty
  %wm1 = add i32 %w, -1
  %hm1 = add i32 %h, -1
  %c1 = icmp sgt i32 %x, 0
  %c2 = icmp slt i32 %x, %wm1
  %c3 = icmp sgt i32 %y, 0
  %c4 = icmp slt i32 %y, %hm1
  %a1 = and i1 %c1, %c2
  %a2 = and i1 %c3, %c4
  %ok = and i1 %a1, %a2
  br i1 %ok, label %body, label %exit

body:
  %row = mul i32 %y, %w
  %idx = add i32 %row, %x
  %idx64 = sext i32 %idx to i64
  %w64 = sext i32 %w to i64
  %pc = getelementptr inbounds float, float addrspace(1)* %in, i64 %idx64
  %pw = getelementptr inbounds float, float addrspace(1)* %pc, i64 -1
  %pe = getelementptr inbounds float, float addrspace(1)* %pc, i64 1
  %nw = sub i64 0, %w64
  %pn = getelementptr inbounds float, float addrspace(1)* %pc, i64 %nw
  %ps = getelementptr inbounds float, float addrspace(1)* %pc, i64 %w64
  %vc = load float, float addrspace(1)* %pc, align 4
  %vw = load float, float addrspace(1)* %pw, align 4
  %ve = load float, float addrspace(1)* %pe, align 4
  %vn = load float, float addrspace(1)* %pn, align 4
  %vs = load float, float addrspace(1)* %ps, align 4
  %s0 = fadd float %vw, %ve
  %s1 = fadd float %vn, %vs
  %s2 = fadd float %s0, %s1
  %s3 = fadd float %s2, %vc
  %r = fmul float %s3, 0x3FC99999A0000000
  %po = getelementptr inbounds float, float addrspace(1)* %out, i64 %idx64
  store float %r, float addrspace(1)* %po, align 4
  br label %exit

exit:
  ret void
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i32)* @jacobi5, !"kernel", i32 1}
!1 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i32)* @jacobi5, !"maxntidx", i32 16}
!2 = !{void (float addrspace(1)*, float addrspace(1)*, i32, i32)* @jacobi5, !"maxntidy", i32 16}

; vector_loads.ll - <4 x float> and <2 x double> global loads/stores (ld.v4 /
; st.v4 / ld.v2.f64), <2 x i16> packed values, and a <4 x i32> constant-space
; table read with ld.const.v4.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@coeffs = internal addrspace(4) constant [2 x <4 x i32>] [<4 x i32> <i32 1, i32 2, i32 3, i32 4>, <4 x i32> <i32 -1, i32 16, i32 255, i32 65536>], align 16

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @vec4(<4 x float> addrspace(1)* %out, <4 x float> addrspace(1)* readonly %in, <2 x double> addrspace(1)* %d, <4 x i32> addrspace(1)* %iout) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pin = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %in, i64 %t64
  %v = load <4 x float>, <4 x float> addrspace(1)* %pin, align 16
  %sc = fmul <4 x float> %v, <float 2.0, float 0.5, float -1.0, float 3.0>
  %sw = shufflevector <4 x float> %sc, <4 x float> undef, <4 x i32> <i32 3, i32 2, i32 1, i32 0>
  %pout = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %out, i64 %t64
  store <4 x float> %sw, <4 x float> addrspace(1)* %pout, align 16
  %pd = getelementptr inbounds <2 x double>, <2 x double> addrspace(1)* %d, i64 %t64
  %dv = load <2 x double>, <2 x double> addrspace(1)* %pd, align 16
  %d0 = extractelement <2 x double> %dv, i32 0
  %d1 = extractelement <2 x double> %dv, i32 1
  %ds = fadd double %d0, %d1
  %dn = insertelement <2 x double> %dv, double %ds, i32 1
  store <2 x double> %dn, <2 x double> addrspace(1)* %pd, align 16
  %sel = and i64 %t64, 1
  %pc = getelementptr inbounds [2 x <4 x i32>], [2 x <4 x i32>] addrspace(4)* @coeffs, i64 0, i64 %sel
  %cv = load <4 x i32>, <4 x i32> addrspace(4)* %pc, align 16
  %spl = insertelement <4 x i32> undef, i32 %tid, i32 0
  %tv = shufflevector <4 x i32> %spl, <4 x i32> undef, <4 x i32> zeroinitializer
  %iv = mul <4 x i32> %cv, %tv
  %pi = getelementptr inbounds <4 x i32>, <4 x i32> addrspace(1)* %iout, i64 %t64
  store <4 x i32> %iv, <4 x i32> addrspace(1)* %pi, align 16
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (<4 x float> addrspace(1)*, <4 x float> addrspace(1)*, <2 x double> addrspace(1)*, <4 x i32> addrspace(1)*)* @vec4, !"kernel", i32 1}

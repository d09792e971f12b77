; math_intrinsics.ll - LLVM math intrinsics that map to PTX instructions:
; sqrt (sqrt.rn), fma (fma.rn), fabs, minnum/maxnum, floor/ceil/trunc,
; copysign, double-precision sqrt/fma, and NVVM approximate sin/cos/ex2/lg2/rsqrt.
; LLC-FLAGS: -mcpu=sm_86 -mattr=+ptx75
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.sqrt.f32(float)
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.floor.f32(float)
declare float @llvm.ceil.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.copysign.f32(float, float)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.nvvm.sin.approx.f(float)
declare float @llvm.nvvm.cos.approx.f(float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.lg2.approx.f(float)
declare float @llvm.nvvm.rsqrt.approx.f(float)

define void @math(float addrspace(1)* %f, double addrspace(1)* %d) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pf = getelementptr inbounds float, float addrspace(1)* %f, i64 %t64
  %pd = getelementptr inbounds double, double addrspace(1)* %d, i64 %t64
  %x = load float, float addrspace(1)* %pf, align 4
  %y = load double, double addrspace(1)* %pd, align 8
  %a = call float @llvm.sqrt.f32(float %x)
  %b = call float @llvm.fma.f32(float %x, float %a, float 1.000000e+00)
  %c = call float @llvm.fabs.f32(float %b)
  %e = call float @llvm.minnum.f32(float %c, float 1.000000e+02)
  %g = call float @llvm.maxnum.f32(float %e, float -1.000000e+02)
  %h = call float @llvm.floor.f32(float %g)
  %i = call float @llvm.ceil.f32(float %h)
  %j = call float @llvm.trunc.f32(float %i)
  %k = call float @llvm.copysign.f32(float %j, float %x)
  %s = call float @llvm.nvvm.sin.approx.f(float %k)
  %co = call float @llvm.nvvm.cos.approx.f(float %k)
  %ex = call float @llvm.nvvm.ex2.approx.f(float %s)
  %lg = call float @llvm.nvvm.lg2.approx.f(float %co)
  %rs = call float @llvm.nvvm.rsqrt.approx.f(float %ex)
  %sum1 = fadd float %lg, %rs
  %div = fdiv float %sum1, %x
  store float %div, float addrspace(1)* %pf, align 4
  %dy = call double @llvm.sqrt.f64(double %y)
  %dz = call double @llvm.fma.f64(double %y, double %dy, double 0x3FF8000000000000)
  %dq = fdiv double %dz, %y
  store double %dq, double addrspace(1)* %pd, align 8
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, double addrspace(1)*)* @math, !"kernel", i32 1}

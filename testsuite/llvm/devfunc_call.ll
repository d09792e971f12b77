; devfunc_call.ll - kernel calling non-inlined device functions: one with a
; scalar return value (call with return and argument lists), one returning
; void with a pointer argument, and a recursive one.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define internal float @poly(float %x, float %a, float %b) noinline {
  %t = fmul float %x, %a
  %r = fadd float %t, %b
  ret float %r
}

define internal void @store_twice(float addrspace(1)* %p, float %v) noinline {
  store float %v, float addrspace(1)* %p, align 4
  %q = getelementptr inbounds float, float addrspace(1)* %p, i64 1
  store float %v, float addrspace(1)* %q, align 4
  ret void
}

define internal i32 @fact(i32 %n) noinline {
entry:
  %small = icmp slt i32 %n, 2
  br i1 %small, label %base, label %rec
base:
  ret i32 1
rec:
  %m = add i32 %n, -1
  %f = call i32 @fact(i32 %m)
  %r = mul i32 %f, %n
  ret i32 %r
}

define void @call_kernel(float addrspace(1)* %out, i32 addrspace(1)* %iout, float %a, float %b) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %x = uitofp i32 %tid to float
  %y = call float @poly(float %x, float %a, float %b)
  %t64 = zext i32 %tid to i64
  %off = shl i64 %t64, 1
  %p = getelementptr inbounds float, float addrspace(1)* %out, i64 %off
  call void @store_twice(float addrspace(1)* %p, float %y)
  %k = and i32 %tid, 7
  %f = call i32 @fact(i32 %k)
  %ip = getelementptr inbounds i32, i32 addrspace(1)* %iout, i64 %t64
  store i32 %f, i32 addrspace(1)* %ip, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, i32 addrspace(1)*, float, float)* @call_kernel, !"kernel", i32 1}

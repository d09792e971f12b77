; globals_init.ll - module-level data LLVM turns into PTX initializers:
; a visible global int array, a constant float table, a global holding the
; address of another global (generic() initializer), a nested struct
; aggregate, and an external declaration; plus a .weak (linkonce) function.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global [8 x i32] [i32 0, i32 1, i32 -1, i32 255, i32 65535, i32 2147483647, i32 -2147483648, i32 42], align 4
@ftab = internal addrspace(4) constant [4 x float] [float 1.0, float 0x3FB99999A0000000, float -0.0, float 0x7FF0000000000000], align 4
@ptr_to_table = addrspace(1) global i32* addrspacecast (i32 addrspace(1)* bitcast ([8 x i32] addrspace(1)* @table to i32 addrspace(1)*) to i32*), align 8
@gptr_plus = addrspace(1) global i32 addrspace(1)* getelementptr inbounds ([8 x i32], [8 x i32] addrspace(1)* @table, i64 0, i64 2), align 8
@pairs = addrspace(1) global [2 x { i32, i16, i8 }] [{ i32, i16, i8 } { i32 7, i16 8, i8 9 }, { i32, i16, i8 } { i32 -7, i16 -8, i8 -9 }], align 8
@ext = external addrspace(1) global i32, align 4

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define linkonce_odr i32 @helper(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}

define void @use_globals(i32 addrspace(1)* %out, float addrspace(1)* %fout) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %k = and i32 %tid, 7
  %k64 = zext i32 %k to i64
  %pt = getelementptr inbounds [8 x i32], [8 x i32] addrspace(1)* @table, i64 0, i64 %k64
  %v = load i32, i32 addrspace(1)* %pt, align 4
  %pp = load i32*, i32* addrspace(1)* @ptr_to_table, align 8
  %w = load i32, i32* %pp, align 4
  %e = load i32, i32 addrspace(1)* @ext, align 4
  %j = and i64 %k64, 1
  %pa = getelementptr inbounds [2 x { i32, i16, i8 }], [2 x { i32, i16, i8 }] addrspace(1)* @pairs, i64 0, i64 %j, i32 1
  %s = load i16, i16 addrspace(1)* %pa, align 4
  %s32 = sext i16 %s to i32
  %h = call i32 @helper(i32 %v)
  %a0 = add i32 %h, %w
  %a1 = add i32 %a0, %e
  %a2 = add i32 %a1, %s32
  %t64 = zext i32 %tid to i64
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %t64
  store i32 %a2, i32 addrspace(1)* %po, align 4
  %f3 = and i64 %k64, 3
  %pf = getelementptr inbounds [4 x float], [4 x float] addrspace(4)* @ftab, i64 0, i64 %f3
  %f = load float, float addrspace(4)* %pf, align 4
  %pfo = getelementptr inbounds float, float addrspace(1)* %fout, i64 %t64
  store float %f, float addrspace(1)* %pfo, align 4
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (i32 addrspace(1)*, float addrspace(1)*)* @use_globals, !"kernel", i32 1}

; debug_info.ll - a kernel with full DWARF debug info (clang-14 -g -O1 of the C
; source quoted below, plus the kernel annotation): llc emits .file/.loc
; lines and .section .debug_* blocks with labels and label expressions.
;
;   static inline float scale(float x, float k) { return x * k + 1.0f; }
;   void dbg_kernel(float *out, const float *in, float k, int n) {
;     int i = __nvvm_read_ptx_sreg_tid_x();
;     if (i < n) {
;       float acc = 0.0f;
;       for (int j = 0; j <= i % 4; ++j)
;         acc += scale(in[i + j], k);
;       out[i] = acc;
;     }
;   }
;
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nofree nosync nounwind
define dso_local void @dbg_kernel(float* nocapture noundef writeonly %0, float* nocapture noundef readonly %1, float noundef %2, i32 noundef %3) local_unnamed_addr #0 !dbg !7 {
  call void @llvm.dbg.value(metadata float* %0, metadata !16, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata float* %1, metadata !17, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata float %2, metadata !18, metadata !DIExpression()), !dbg !26
  call void @llvm.dbg.value(metadata i32 %3, metadata !19, metadata !DIExpression()), !dbg !26
  %5 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !27
  call void @llvm.dbg.value(metadata i32 %5, metadata !20, metadata !DIExpression()), !dbg !26
  %6 = icmp slt i32 %5, %3, !dbg !28
  br i1 %6, label %7, label %25, !dbg !29

7:                                                ; preds = %4
  %8 = srem i32 %5, 4
  call void @llvm.dbg.value(metadata i32 0, metadata !24, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata float 0.000000e+00, metadata !21, metadata !DIExpression()), !dbg !31
  %9 = icmp slt i32 %8, 0, !dbg !32
  br i1 %9, label %10, label %14, !dbg !34

10:                                               ; preds = %14, %7
  %11 = phi float [ 0.000000e+00, %7 ], [ %22, %14 ], !dbg !31
  %12 = sext i32 %5 to i64, !dbg !35
  %13 = getelementptr inbounds float, float* %0, i64 %12, !dbg !35
  store float %11, float* %13, align 4, !dbg !36, !tbaa !37
  br label %25, !dbg !41

14:                                               ; preds = %7, %14
  %15 = phi i32 [ %23, %14 ], [ 0, %7 ]
  %16 = phi float [ %22, %14 ], [ 0.000000e+00, %7 ]
  call void @llvm.dbg.value(metadata i32 %15, metadata !24, metadata !DIExpression()), !dbg !30
  call void @llvm.dbg.value(metadata float %16, metadata !21, metadata !DIExpression()), !dbg !31
  %17 = add nsw i32 %15, %5, !dbg !42
  %18 = sext i32 %17 to i64, !dbg !43
  %19 = getelementptr inbounds float, float* %1, i64 %18, !dbg !43
  %20 = load float, float* %19, align 4, !dbg !43, !tbaa !37
  call void @llvm.dbg.value(metadata float %20, metadata !44, metadata !DIExpression()) #4, !dbg !50
  call void @llvm.dbg.value(metadata float %2, metadata !49, metadata !DIExpression()) #4, !dbg !50
  %21 = call float @llvm.fmuladd.f32(float %20, float %2, float 1.000000e+00) #4, !dbg !52
  %22 = fadd float %16, %21, !dbg !53
  call void @llvm.dbg.value(metadata float %22, metadata !21, metadata !DIExpression()), !dbg !31
  %23 = add nuw nsw i32 %15, 1, !dbg !54
  call void @llvm.dbg.value(metadata i32 %23, metadata !24, metadata !DIExpression()), !dbg !30
  %24 = icmp eq i32 %15, %8, !dbg !32
  br i1 %24, label %10, label %14, !dbg !34, !llvm.loop !55

25:                                               ; preds = %10, %4
  ret void, !dbg !59
}

; Function Attrs: nofree nosync nounwind readnone speculatable
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nofree nosync nounwind readnone speculatable willreturn
declare float @llvm.fmuladd.f32(float, float, float) #2

; Function Attrs: nofree nosync nounwind readnone speculatable willreturn
declare void @llvm.dbg.value(metadata, metadata, metadata) #3

attributes #0 = { nofree nosync nounwind "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_75" "target-features"="+ptx70,+sm_75" }
attributes #1 = { nofree nosync nounwind readnone speculatable }
attributes #2 = { mustprogress nofree nosync nounwind readnone speculatable willreturn }
attributes #3 = { nofree nosync nounwind readnone speculatable willreturn }
attributes #4 = { nounwind }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5}
!llvm.ident = !{!6}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "Debian clang version 14.0.6", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "dbg.c", directory: "")
!2 = !{i32 7, !"Dwarf Version", i32 2}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 14.0.6"}
!7 = distinct !DISubprogram(name: "dbg_kernel", scope: !1, file: !1, line: 2, type: !8, scopeLine: 2, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !15)
!8 = !DISubroutineType(types: !9)
!9 = !{null, !10, !12, !11, !14}
!10 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !11, size: 64)
!11 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!12 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64)
!13 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !11)
!14 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!15 = !{!16, !17, !18, !19, !20, !21, !24}
!16 = !DILocalVariable(name: "out", arg: 1, scope: !7, file: !1, line: 2, type: !10)
!17 = !DILocalVariable(name: "in", arg: 2, scope: !7, file: !1, line: 2, type: !12)
!18 = !DILocalVariable(name: "k", arg: 3, scope: !7, file: !1, line: 2, type: !11)
!19 = !DILocalVariable(name: "n", arg: 4, scope: !7, file: !1, line: 2, type: !14)
!20 = !DILocalVariable(name: "i", scope: !7, file: !1, line: 3, type: !14)
!21 = !DILocalVariable(name: "acc", scope: !22, file: !1, line: 5, type: !11)
!22 = distinct !DILexicalBlock(scope: !23, file: !1, line: 4, column: 14)
!23 = distinct !DILexicalBlock(scope: !7, file: !1, line: 4, column: 7)
!24 = !DILocalVariable(name: "j", scope: !25, file: !1, line: 6, type: !14)
!25 = distinct !DILexicalBlock(scope: !22, file: !1, line: 6, column: 5)
!26 = !DILocation(line: 0, scope: !7)
!27 = !DILocation(line: 3, column: 11, scope: !7)
!28 = !DILocation(line: 4, column: 9, scope: !23)
!29 = !DILocation(line: 4, column: 7, scope: !7)
!30 = !DILocation(line: 0, scope: !25)
!31 = !DILocation(line: 0, scope: !22)
!32 = !DILocation(line: 6, column: 23, scope: !33)
!33 = distinct !DILexicalBlock(scope: !25, file: !1, line: 6, column: 5)
!34 = !DILocation(line: 6, column: 5, scope: !25)
!35 = !DILocation(line: 8, column: 5, scope: !22)
!36 = !DILocation(line: 8, column: 12, scope: !22)
!37 = !{!38, !38, i64 0}
!38 = !{!"float", !39, i64 0}
!39 = !{!"omnipotent char", !40, i64 0}
!40 = !{!"Simple C/C++ TBAA"}
!41 = !DILocation(line: 9, column: 3, scope: !22)
!42 = !DILocation(line: 7, column: 25, scope: !33)
!43 = !DILocation(line: 7, column: 20, scope: !33)
!44 = !DILocalVariable(name: "x", arg: 1, scope: !45, file: !1, line: 1, type: !11)
!45 = distinct !DISubprogram(name: "scale", scope: !1, file: !1, line: 1, type: !46, scopeLine: 1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !48)
!46 = !DISubroutineType(types: !47)
!47 = !{!11, !11, !11}
!48 = !{!44, !49}
!49 = !DILocalVariable(name: "k", arg: 2, scope: !45, file: !1, line: 1, type: !11)
!50 = !DILocation(line: 0, scope: !45, inlinedAt: !51)
!51 = distinct !DILocation(line: 7, column: 14, scope: !33)
!52 = !DILocation(line: 1, column: 60, scope: !45, inlinedAt: !51)
!53 = !DILocation(line: 7, column: 11, scope: !33)
!54 = !DILocation(line: 6, column: 33, scope: !33)
!55 = distinct !{!55, !34, !56, !57, !58}
!56 = !DILocation(line: 7, column: 32, scope: !25)
!57 = !{!"llvm.loop.mustprogress"}
!58 = !{!"llvm.loop.unroll.disable"}
!59 = !DILocation(line: 10, column: 1, scope: !7)

!nvvm.annotations = !{!100}
!100 = !{void (float*, float*, float, i32)* @dbg_kernel, !"kernel", i32 1}

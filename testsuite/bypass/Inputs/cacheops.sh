#!/bin/sh
# cacheops.sh PTXAS NVDISASM TABLE SCRATCH — one module per target (sm_75,
# sm_80, sm_86, sm_89, sm_90) with one kernel per row of TABLE, each
# loading once with the row's operator; nvdisasm's LDG opcode of each
# kernel is compared with the row.  Also .L2::cache_hint on sm_80+ (a
# plain LDG.E whose address is a desc[UR] operand).  Exits 1 on a
# difference, after naming each.
set -e
ptxas=$1 nvdisasm=$2 table=$3 tmp=$4
mkdir -p "$tmp"
rows=$(grep -v '^#' "$table" | grep -v '^$')
kernel() { # NAME QUALIFIER [POLICY]
  pre= post=
  [ -n "$3" ] && pre="createpolicy.fractional.L2::evict_first.b64 %rd3;" post=", %rd3"
  printf '.visible .entry %s(.param .u64 p, .param .u64 q)\n{\n.reg .f32 %%f<2>;\n.reg .b64 %%rd<5>;\nld.param.u64 %%rd1, [p];\nld.param.u64 %%rd2, [q];\n%s\n%s.f32 %%f1, [%%rd1]%s;\nst.global.f32 [%%rd2], %%f1;\nret;\n}\n' "$1" "$pre" "$2" "$post"
}
bad=0
for sm in 75 80 86 89 90; do
  { printf '.version 8.3\n.target sm_%s\n.address_size 64\n' $sm
    i=0
    echo "$rows" | while read -r q s75 s80; do kernel k$i "$q"; i=$((i + 1)); done
    [ $sm = 75 ] || kernel khint ld.global.L2::cache_hint policy
  } > "$tmp/m$sm.ptx"
  "$ptxas" -arch=sm_$sm "$tmp/m$sm.ptx" -o "$tmp/m$sm.cubin"
  # kernel name -> its first LDG
  "$nvdisasm" -c "$tmp/m$sm.cubin" | awk '/^\.text\./ { k = substr($1, 7); sub(/:$/, "", k) } /LDG/ && !(k in seen) { seen[k] = 1; for (i = 1; i <= NF; i++) if ($i ~ /^LDG/) { print k, $i, $0; break } }' > "$tmp/m$sm.ldg"
  i=0
  while read -r q s75 s80; do
    want=$s80; [ $sm = 75 ] && want=$s75
    got=$(awk -v k=k$i '$1 == k { print $2 }' "$tmp/m$sm.ldg")
    [ "$got" = "$want" ] || { echo "$q sm_$sm: nvdisasm says $got, the table $want"; bad=1; }
    i=$((i + 1))
  done <<ROWS
$rows
ROWS
  if [ $sm != 75 ]; then
    grep '^khint ' "$tmp/m$sm.ldg" | grep -q 'LDG\.E R[0-9]*, desc\[UR[0-9]*\]' || { echo ".L2::cache_hint sm_$sm: no LDG.E with a desc[UR] operand"; bad=1; }
  fi
done
[ $bad = 0 ] && echo "cacheops.sh: every operator as the table says"
exit $bad

#!/usr/bin/env bash
# What `include_spirv_asm!` costs the crate that uses it: for a 1 KB shader and for the
# corpus's 15 MB synth50.spvasm, the macro's own expansion time (SPIRV_ASM_TIMING) and
# the whole `cargo build` of the using crate (its dependencies already built): wall time
# and peak memory (/usr/bin/time; rustc is the largest process), not incremental
# (an incremental rebuild reuses the constant evaluation). Default dev profile,
# so the macro runs as most users build it.
#
#   scripts/asm-macro-cost.sh [ROUNDS]    (default 3; medians)
set -euo pipefail
rounds="${1:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${SPIRV_CORPUS:-$root/../shared/corpus}"
work="$(mktemp -d "${TMPDIR:-/tmp}/asm-macro-cost.XXXXXX")"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/user/src"
cat > "$work/user/Cargo.toml" <<EOF2
[package]
name = "asm-macro-user"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
spirv-asm-macros = { path = "$root/spirv-asm-macros" }

[workspace]
EOF2
cp "$root/Cargo.lock" "$work/user/Cargo.lock"
# A small compute shader, about 1 KB of text.
cat > "$work/small.spvasm" <<'EOF2'
; A compute shader that doubles an array.
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %buf 0 Offset 0
               OpDecorate %buf Block
               OpDecorate %data DescriptorSet 0
               OpDecorate %data Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
  %ptr_in_v3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in_v3 Input
        %arr = OpTypeRuntimeArray %float
        %buf = OpTypeStruct %arr
    %ptr_buf = OpTypePointer StorageBuffer %buf
       %data = OpVariable %ptr_buf StorageBuffer
  %ptr_float = OpTypePointer StorageBuffer %float
     %uint_0 = OpConstant %uint 0
    %float_2 = OpConstant %float 2
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %id 0
          %p = OpAccessChain %ptr_float %data %uint_0 %x
          %v = OpLoad %float %p
          %d = OpFMul %float %v %float_2
               OpStore %p %d
               OpReturn
               OpFunctionEnd
EOF2

measure() { # label, path
  printf 'const W: &[u32] = spirv_asm_macros::include_spirv_asm!(%s);\nfn main() { println!("{}", W.len()); }\n' "\"$2\"" > "$work/user/src/main.rs"
  (cd "$work/user" && CARGO_TARGET_DIR="$work/target" cargo build --quiet --offline 2>/dev/null) # dependencies
  local walls=() mems=() exps=()
  for _ in $(seq "$rounds"); do
    touch "$work/user/src/main.rs"
    local log="$work/log"
    (cd "$work/user" && SPIRV_ASM_TIMING=1 CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" \
      /usr/bin/time -f "%e %M" cargo build --quiet --offline) 2> "$log"
    exps+=("$(sed -n 's/.*expanded in \([0-9.]*\) ms.*/\1/p' "$log" | tail -1)")
    read -r wall mem < <(tail -1 "$log")
    walls+=("$wall"); mems+=("$mem")
  done
  local words
  words="$("$work/target/debug/asm-macro-user")"
  median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  printf '%-28s %9s bytes of text, %8s words: expansion %8s ms, build %6s s, peak %6s MB\n' \
    "$1" "$(stat -c %s "$2")" "$words" "$(median "${exps[@]}")" "$(median "${walls[@]}")" \
    "$(( $(median "${mems[@]}") / 1024 ))"
}

echo "include_spirv_asm! cost, $rounds rounds, medians ($(date -u +%F))"
measure "1 KB compute shader" "$work/small.spvasm"
if [ -f "$corpus/large/synth50.spvasm" ]; then
  measure "synth50.spvasm" "$corpus/large/synth50.spvasm"
else
  echo "synth50.spvasm: corpus not found at $corpus" >&2
fi

// Syntax errors (E00xx): what tree-sitter's ERROR and MISSING nodes, bad
// bytes and runaway nesting turn into. Cases are separated by `// -----` and
// each is checked on its own, so each has its own `target` line.

target sm_90a
kernel missing_bracket(A: global f32[64]) grid (1) block 32 {
  reg buf: f32[16]
  // expected-error@+1 [CAKE-E0002] {{expected `]` to close the index opened at 9:16}}
  load buf <- A[0 : 16
  syncthreads
}

// -----

target sm_90a
kernel missing_brace() grid (1) block 128 {
  // expected-error@+1 [CAKE-E0002] {{expected `}` to close the block opened at 16:43}}
  syncthreads

// -----

target sm_90a
const A = 1 + // expected-error [CAKE-E0002] {{expected a name}}

// -----

target sm_90a
kernel unknown_statement() grid (1) block 128 {
  syncthreads
  // expected-error@+1 [CAKE-E0001] {{unexpected `frobnicate`: expected a statement}}
  frobnicate x y
  wgmma.fence
}

// -----

target sm_90a
] // expected-error [CAKE-E0001] {{unexpected `]`: expected an item}}
const A = 1

// -----

target sm_90a
kernel malformed_wait() grid (1) block 128 {
  mbarrier b
  wait b // expected-error [CAKE-E0001] {{malformed `wait`: expected `wait BARRIER parity(P)`}}
}

// -----

target sm_90a
// The next line holds two runs of bytes that are not UTF-8: FF, and C0 80
// (an overlong NUL); each is reported.
const A = 1 // ÿ À€ expected-error [CAKE-E0003] {{invalid UTF-8}} expected-error [CAKE-E0003] {{invalid UTF-8}}

// -----

target sm_90a
// An invalid character is reported as itself, not as its neighbour.
// expected-error@+1 {{`$`}}
const A = 1 $ 2

// -----

// A bench's `reference` without a kernel name; the near miss names one.
target sm_90a
kernel k(A: global f32[N]) grid (1) block 128 { }
kernel k_ref(A: global f32[N]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0001] {{malformed `reference`: expected `bench KERNEL { SYM = VALUE, ... } [reference KERNEL]`}}
bench k { N = 128 } reference 12
bench k { N = 256 } reference k_ref

// -----

target sm_90a
const A = 1
// expected-error@+1 [CAKE-E0004] {{block comment is never closed}}
/* this comment never ends
const B = 2

// -----

target sm_90a
// 300 nested parentheses.
// expected-error@+1 [CAKE-E0005] {{nesting deeper than 256 levels}}
const A = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))

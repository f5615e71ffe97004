// Dispatch (E0120-E0123): one case per rule that must draw it, and a
// near-miss beside it that must not. Cases are separated by `// -----`.
// Kernels are empty: only their parameters and `where` facts matter here.

// E0120: the guard admits K = 384, which `small` rejects.
target sm_90a
kernel small(X: global f32[N, 64], C: global f32[K, 64]) where N % 128 == 0, K % 128 == 0, K <= 256 grid (1) block 128 { }
kernel generic(X: global f32[N, 64], C: global f32[K, 64]) grid (1) block 128 { }
dispatch d(X, C) {
  // expected-error@+1 [CAKE-E0120] {{N = 128, K = 384 passes this guard but breaks `K <= 256` of `small`}}
  when N % 128 == 0 && K % 128 == 0 -> small
  else -> generic
}

// -----

// Near miss: the guard states every fact of `small` (K % 128 == 0 and
// K <= 256 also give K >= 128: sizes are positive).
target sm_90a
kernel small(X: global f32[N, 64], C: global f32[K, 64]) where N % 128 == 0, K % 128 == 0, K >= 128, K <= 256 grid (1) block 128 { }
kernel generic(X: global f32[N, 64], C: global f32[K, 64]) grid (1) block 128 { }
dispatch d(X, C) {
  when N % 256 == 0 && K % 128 == 0 && K <= 256 -> small
  else -> generic
}

// -----

// E0120 at `else`: N = 128 fails the first guard and reaches `tiny`.
target sm_90a
kernel big(X: global f32[N]) where N >= 256 grid (1) block 128 { }
kernel tiny(X: global f32[N]) where N < 128 grid (1) block 128 { }
dispatch d(X) {
  when N >= 256 -> big
  // expected-error@+1 [CAKE-E0120] {{N = 128 reaches `else` but breaks `N < 128` of `tiny`}}
  else -> tiny
}

// -----

// Near miss: the earlier guard being false is what makes `else` sound.
target sm_90a
kernel big(X: global f32[N]) where N >= 128 grid (1) block 128 { }
kernel tiny(X: global f32[N]) where N < 128 grid (1) block 128 { }
dispatch d(X) {
  when N >= 128 -> big
  else -> tiny
}

// -----

// E0120 from a parameter shape: `fixed` needs dim 2 of `X` to be 64.
target sm_90a
kernel fixed(X: global f32[N, 64]) grid (1) block 128 { }
kernel any_width(X: global f32[N, D]) grid (1) block 128 { }
dispatch d(X) {
  // expected-error@+1 [CAKE-E0120] {{D = 1 passes this guard but breaks dim 2 of `X` = 64 of `fixed`}}
  when D <= 64 -> fixed
  else -> any_width
}

// -----

// Near miss: the guard pins D.
target sm_90a
kernel fixed(X: global f32[N, 64]) grid (1) block 128 { }
kernel any_width(X: global f32[N, D]) grid (1) block 128 { }
dispatch d(X) {
  when D == 64 -> fixed
  else -> any_width
}

// -----

// E0120 from a repeated symbol: `square` needs both dims of `X` equal.
target sm_90a
kernel square(X: global f32[N, N]) grid (1) block 128 { }
kernel any_shape(X: global f32[N, P]) grid (1) block 128 { }
dispatch d(X) {
  // expected-error@+1 [CAKE-E0120] {{N = 1, P = 2 passes this guard but breaks dim 2 of `X` = `N` of `square`}}
  when N <= P -> square
  else -> any_shape
}

// -----

// Near miss: the guard states the equality.
target sm_90a
kernel square(X: global f32[N, N]) grid (1) block 128 { }
kernel any_shape(X: global f32[N, P]) grid (1) block 128 { }
dispatch d(X) {
  when N == P -> square
  else -> any_shape
}

// -----

// E0120 between two symbols: the guard does not order M and N.
target sm_90a
kernel tall(A: global f32[M, N]) where M >= N grid (1) block 128 { }
kernel any(A: global f32[M, N]) grid (1) block 128 { }
dispatch d(A) {
  // expected-error@+1 [CAKE-E0120] {{M = 1, N = 2 passes this guard but breaks `M >= N` of `tall`}}
  when M % 2 == 1 -> tall
  else -> any
}

// -----

// Near miss: M >= N, then M < N for the rest.
target sm_90a
kernel tall(A: global f32[M, N]) where M >= N grid (1) block 128 { }
kernel wide(A: global f32[M, N]) where M < N grid (1) block 128 { }
dispatch d(A) {
  when N <= M -> tall
  else -> wide
}

// -----

// E0121: a guard that never holds (an even N is never 1 mod 4).
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  // expected-error@+1 [CAKE-E0121] {{this guard never holds}}
  when N % 2 == 0 && N % 4 == 1 -> a
  else -> a
}

// -----

// Near miss: an even N may be 2 mod 4.
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N % 2 == 0 && N % 4 == 2 -> a
  else -> a
}

// -----

// E0121: the two earlier cases take every N.
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N <= 256 -> a
  when N > 256 -> a
  // expected-error@+1 [CAKE-E0121] {{the earlier cases take every shape this guard admits}}
  when N % 128 == 0 -> a
}

// -----

// Near miss: N = 384 reaches the third case.
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N <= 256 -> a
  when N > 512 -> a
  when N % 128 == 0 -> a
  else -> a
}

// -----

// E0121: the first case admits every shape (sizes are at least 1).
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N >= 1 -> a
  // expected-error@+1 [CAKE-E0121] {{an earlier case takes every shape}}
  when N > 5 -> a
}

// -----

// E0121: `else` after cases that cover everything.
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N % 2 == 0 -> a
  when N % 2 == 1 -> a
  // expected-error@+1 [CAKE-E0121] {{unreachable `else`}}
  else -> a
}

// -----

// Near miss: odd N that is 3 mod 4 still reaches `else`.
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N % 2 == 0 -> a
  when N % 4 == 1 -> a
  else -> a
}

// -----

// E0122: no `else`, and N = 129 matches no guard.
target sm_90a
kernel a(X: global f32[N]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0122] {{no case takes N = 129: add an `else` case or widen a guard}}
dispatch d(X) {
  when N % 128 == 0 -> a
  when N < 128 -> a
}

// -----

// E0122 over two symbols: M == N falls between the guards.
target sm_90a
kernel a(A: global f32[M, N]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0122] {{no case takes M = 1, N = 1: add an `else` case or widen a guard}}
dispatch d(A) {
  when M < N -> a
  when M > N -> a
}

// -----

// Near miss: the guards cover every M and N without an `else`.
target sm_90a
kernel a(A: global f32[M, N]) grid (1) block 128 { }
dispatch d(A) {
  when M < N -> a
  when M >= N -> a
}

// -----

// E0123: a case kernel with another parameter count.
target sm_90a
kernel two(X: global f32[N], Y: global f32[N]) grid (1) block 128 { }
kernel one(X: global f32[N]) grid (1) block 128 { }
dispatch d(X, Y) {
  when N >= 128 -> two
  // expected-error@+1 [CAKE-E0123] {{`one` takes 1 parameter(s) but `d` passes 2}}
  else -> one
}

// -----

// E0123: the same count, but the parameters in another order.
target sm_90a
kernel xy(X: global f32[N], Y: global f32[N]) grid (1) block 128 { }
kernel yx(Y: global f32[N], X: global f32[N]) grid (1) block 128 { }
dispatch d(X, Y) {
  when N >= 128 -> xy
  // expected-error@+1 [CAKE-E0123] {{parameter 1 of `yx` is `Y`, but `d` passes `X` there}}
  else -> yx
}

// -----

// E0123: the same names with another dtype, and another constant dim.
target sm_90a
kernel a(X: global bf16[N, 64]) grid (1) block 128 { }
kernel b(X: global f16[N, 64]) grid (1) block 128 { }
kernel c(X: global bf16[N, 128]) grid (1) block 128 { }
dispatch d(X) {
  when N >= 128 -> a
  // expected-error@+1 [CAKE-E0123] {{`X` is f16 in `b` but bf16 in `a`: every case kernel must take the same arguments}}
  when N >= 64 -> b
  // expected-error@+1 [CAKE-E0123] {{dim 2 of `X` is 128 in `c` but 64 in `a`: every case kernel must take the same arguments}}
  else -> c
}

// -----

// E0123: the same name with another number of dims.
target sm_90a
kernel a(X: global bf16[N, 64]) grid (1) block 128 { }
kernel b(X: global bf16[N]) grid (1) block 128 { }
dispatch d(X) {
  when N >= 128 -> a
  // expected-error@+1 [CAKE-E0123] {{`X` has 1 dim(s) in `b` but 2 in `a`: every case kernel must take the same arguments}}
  else -> b
}

// -----

// E0123: `K` is a dim of `C` in one kernel and of `X` in another.
target sm_90a
kernel a(X: global f32[N], C: global f32[K]) grid (1) block 128 { }
kernel b(X: global f32[K], C: global f32[N]) grid (1) block 128 { }
dispatch d(X, C) {
  when K >= 128 -> a
  // expected-error@+1 [CAKE-E0123] {{`K` is dim 1 of `X` in `b` but dim 1 of `C` in `a`: a guard's `K` names one dim, so the case kernels must agree}}
  else -> b
}

// -----

// Near miss: the kernels agree on every parameter; names of the dims may
// differ (a guard's `R` and `N` are then the same dim).
target sm_90a
kernel a(X: global f32[N, 64], out: global i32[N]) where N % 128 == 0 grid (1) block 128 { }
kernel b(X: global f32[R, 64], out: global i32[R]) grid (1) block 128 { }
dispatch d(X, out) {
  when N % 128 == 0 -> a
  when R % 128 != 0 -> b
}

// -----

// Outside the logic (`N / 2`): the check says nothing rather than guess.
target sm_90a
kernel a(X: global f32[N]) where N <= 64 grid (1) block 128 { }
kernel b(X: global f32[N]) grid (1) block 128 { }
dispatch d(X) {
  when N / 2 <= 64 -> a
  else -> b
}

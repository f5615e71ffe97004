// Bench references (E0101/E0108 for the name, E0118, E0119, and E0115 for
// the reference's facts): one case per rule that must draw it, and a near
// miss beside it that must not. Cases are separated by `// -----`. Kernels
// are empty: only their parameters and `where` facts matter here.

// The near miss: the same parameters, dims written the same (`64` and a
// const that folds to 64 are the same constant), a reference declared after
// the bench, and a reference shared by two kernels.
target sm_90a
const D = 64
kernel fast(X: global bf16[N, 64] row_major, C: const f32[D], s: f32, out: global i32[N]) grid (1) block 128 { }
kernel fast2(X: global bf16[N, 64] row_major, C: const f32[64], s: f32, out: global i32[N]) grid (1) block 128 { }
bench fast { N = 1024 } reference slow
bench fast2 { N = 2048 } reference slow
bench fast { N = 4096 }
kernel slow(X: global bf16[N, D] row_major, C: const f32[64], s: f32, out: global i32[N]) grid (N) block 32 { }

// -----

// A reference that names nothing, or something that is not a kernel.
target sm_90a
const two = 2
kernel k(A: global f32[N]) grid (1) block 128 { }
dispatch d(A) { else -> k }
// expected-error@+1 [CAKE-E0101] {{undefined kernel `k_reff`}}
bench k { N = 128 } reference k_reff
// expected-error@+1 [CAKE-E0108] {{`two` is a constant, not a kernel}}
bench k { N = 128 } reference two
// expected-error@+1 [CAKE-E0108] {{`d` is a dispatch, not a kernel}}
bench k { N = 128 } reference d

// -----

// E0119: a kernel that is its own reference.
target sm_90a
kernel k(A: global f32[N]) grid (1) block 128 { }
kernel k_ref(A: global f32[N]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0119] {{`k` is its own reference: comparing a kernel with itself checks nothing}}
bench k { N = 128 } reference k
bench k { N = 128 } reference k_ref

// -----

// E0118: the number of parameters.
target sm_90a
kernel k(A: global f32[N], B: global f32[N]) grid (1) block 128 { }
kernel one(A: global f32[N]) grid (1) block 128 { }
kernel three(A: global f32[N], B: global f32[N], C: global f32[N]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0118] {{`one` takes 1 parameter(s) but `k` takes 2: a reference takes the benched kernel's parameters}}
bench k { N = 128 } reference one
// expected-error@+1 [CAKE-E0118] {{`three` takes 3 parameter(s) but `k` takes 2}}
bench k { N = 128 } reference three

// -----

// E0118: names, kinds, memory spaces, dtypes, ranks, dims and orders, each
// reported once per parameter, on the reference's name.
target sm_90a
kernel k(A: global f32[M, N] row_major, B: const bf16[N], s: f32, C: global f32[M, 64]) grid (1) block 128 { }
kernel renamed(A: global f32[M, N] row_major, Bv: const bf16[N], s: f32, C: global f32[M, 64]) grid (1) block 128 { }
kernel tensor_s(A: global f32[M, N] row_major, B: const bf16[N], s: global f32[N], C: global f32[M, 64]) grid (1) block 128 { }
kernel spaces(A: global f32[M, N] row_major, B: global bf16[N], s: f32, C: global f32[M, 64]) grid (1) block 128 { }
kernel dtypes(A: global f32[M, N] row_major, B: const f16[N], s: f32, C: global f32[M, 64]) grid (1) block 128 { }
kernel ranks(A: global f32[M, N] row_major, B: const bf16[N, 1], s: f32, C: global f32[M, 64]) grid (1) block 128 { }
kernel dims(A: global f32[N, M] row_major, B: const bf16[N], s: f32, C: global f32[M, 128]) grid (1) block 128 { }
kernel orders(A: global f32[M, N] col_major, B: const bf16[N], s: f32, C: global f32[M, 64]) grid (1) block 128 { }
// expected-error@+1 [CAKE-E0118] {{parameter 2 of `renamed` is `Bv`, but in `k` it is `B`}}
bench k { M = 64, N = 64 } reference renamed
// expected-error@+1 [CAKE-E0118] {{`s` is a tensor in `tensor_s` but a scalar in `k`}}
bench k { M = 64, N = 64 } reference tensor_s
// expected-error@+1 [CAKE-E0118] {{`B` is in global memory in `spaces` but in const memory in `k`}}
bench k { M = 64, N = 64 } reference spaces
// expected-error@+1 [CAKE-E0118] {{`B` is f16 in `dtypes` but bf16 in `k`}}
bench k { M = 64, N = 64 } reference dtypes
// expected-error@+1 [CAKE-E0118] {{`B` has 2 dim(s) in `ranks` but 1 in `k`}}
bench k { M = 64, N = 64 } reference ranks
// expected-error@+2 [CAKE-E0118] {{dim 1 of `A` is `N` in `dims` but `M` in `k`}}
// expected-error@+1 [CAKE-E0118] {{dim 2 of `C` is `128` in `dims` but `64` in `k`}}
bench k { M = 64, N = 64 } reference dims
// expected-error@+1 [CAKE-E0118] {{`A` is col_major in `orders` but row_major in `k`}}
bench k { M = 64, N = 64 } reference orders

// -----

// E0115 for the reference: the bench shape runs the reference too.
target sm_90a
kernel k(A: global f32[N]) where N % 64 == 0 grid (1) block 128 { }
kernel k_ref(A: global f32[N]) where N % 128 == 0 grid (1) block 128 { }
// expected-error@+1 [CAKE-E0115] {{bench shape (N = 192) violates the fact `N % 128 == 0` of `k_ref`}}
bench k { N = 192 } reference k_ref
bench k { N = 256 } reference k_ref

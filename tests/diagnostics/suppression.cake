// Suppression comments (E0092, W0091): `// cake: allow(CODE, ...)` silences
// warnings of those codes on its own line and the next. Every case has a
// near-miss beside it. Cases are separated by `// -----`.

// W0091: an allow that silences nothing.
target sm_90a
// expected-warning@+1 [CAKE-W0091] {{`CAKE-W0091` is allowed here, but nothing on this line or the next reports it}}
// cake: allow(CAKE-W0091)

// -----

// Near miss: the warning about the lower allow is silenced by the allow of
// CAKE-W0091 directly above it, which is then used itself.
target sm_90a
// cake: allow(CAKE-W0091)
// cake: allow(CAKE-W0091)

// -----

// W0091 reaches only the line below: a blank line in between leaves both
// allows unused.
target sm_90a
// expected-warning@+1 [CAKE-W0091]
// cake: allow(CAKE-W0091)

// expected-warning@+1 [CAKE-W0091]
// cake: allow(CAKE-W0091)

// -----

// W0091 and E0092 on the codes of one list; text may follow the list.
target sm_90a
// expected-warning@+2 [CAKE-W0091] {{`CAKE-W0091` is allowed here}}
// expected-error@+1 [CAKE-E0092] {{unknown code `CAKE-W9999` in `allow`}}
// cake: allow(CAKE-W0091, CAKE-W9999) the reason for the allow

// -----

// E0092: errors cannot be silenced, and the error is still reported.
target sm_90a
kernel k(A: global f32[N]) where N >= 16 grid (1) block 128 {
  reg r: f32[16]
  // expected-error@+2 [CAKE-E0092] {{`CAKE-E0101` is an error: errors cannot be silenced}}
  // expected-error@+2 [CAKE-E0101] {{undefined name `bogus`}}
  // cake: allow(CAKE-E0101)
  load r <- bogus[0 : 16]
}

// -----

// E0092: on the same line as the error, still not silenced.
target sm_90a
kernel k(A: global f32[N]) where N >= 16 grid (1) block 128 {
  reg r: f32[16]
  // expected-error@+2 [CAKE-E0101] {{undefined name `bogus`}}
  // expected-error@+1 [CAKE-E0092] {{errors cannot be silenced}}
  load r <- bogus[0 : 16]    // cake: allow(CAKE-E0101)
}

// -----

// E0092: an unknown code (the fix adds the missing prefix).
target sm_90a
// expected-error@+1 [CAKE-E0092] {{unknown code `W0091` in `allow`}}
// cake: allow(W0091)

// -----

// E0092: a malformed allow.
target sm_90a
// expected-error@+1 [CAKE-E0092] {{malformed suppression: expected `// cake: allow(CODE, ...)`}}
// cake: allow CAKE-W0091

// -----

// Near misses: prose after `cake:`, and block comments, are not directives.
target sm_90a
// cake: these kernels are the library's; allow(ANYTHING) here is prose
/* cake: allow(BOGUS) */
// a comment that mentions cake: allow(BOGUS) in passing

// Looks up the grammar's symbol and field ids once per process.
#include "model/cst.h"

#include <cstring>

namespace cake {

const Cst& Cst::get() {
  static const Cst cst = [] {
    Cst c;
    const TSLanguage* lang = tree_sitter_cake();
#define CAKE_X(N) c.N = ts_language_symbol_for_name(lang, #N, std::strlen(#N), true);
    CAKE_CST_NODES(CAKE_X)
#undef CAKE_X
#define CAKE_X(N) c.f.N = ts_language_field_id_for_name(lang, #N, std::strlen(#N));
    CAKE_CST_FIELDS(CAKE_X)
#undef CAKE_X
    c.f.operator_ = ts_language_field_id_for_name(lang, "operator", 8);
    c.f.case_ = ts_language_field_id_for_name(lang, "case", 4);
    c.f.default_ = ts_language_field_id_for_name(lang, "default", 7);
    return c;
  }();
  return cst;
}

}  // namespace cake

// The host runtime's TMA and bulk copies (cuda_host.h), done at issue:
// each box element by element, swizzled as its tensor map says, its bytes
// completing on the mbarrier named.
#include "cuda_host_state.h"

namespace cake_host {

namespace {

/// Element `e` of a box at `c` (innermost first, row-major from the
/// innermost dim): its byte offset in the tensor, and whether it is inside.
bool box_element(const TensorMap& map, int rank, const long long* c, uint64_t e, size_t& offset) {
  uint64_t rest = e;
  bool inside = true;
  offset = 0;
  for (int i = 0; i < rank; ++i) {
    long long at = c[i] + static_cast<long long>(rest % map.box[i]);
    rest /= map.box[i];
    inside = inside && at >= 0 && static_cast<uint64_t>(at) < map.dims[i];
    offset += static_cast<size_t>(at) * map.strides[i];
  }
  return inside;
}

uint64_t box_elements(const TensorMap& map, int rank) {
  uint64_t count = 1;
  for (int i = 0; i < rank; ++i) count *= map.box[i];
  return count;
}

/// A packed type's box (16U4/16U6_ALIGN16B: 4- or 6-bit values, the inner
/// box 128 of them) into shared memory at `to` (offset `start`): each 16
/// values of a row packed into the first bytes of a 16-byte chunk, value j
/// at bits j x width, the rest of the chunk zeros; outside the tensor, a
/// zero value. Returns the bytes it counts (the tensor's: packed).
int64_t tma_load_packed(const TensorMap& map, int rank, const long long* c, unsigned char* to, size_t start) {
  unsigned bits = map.element_bits;
  if (map.box[0] != 128 || (bits != 4 && bits != 6)) fault("a packed tensor map whose inner box is not 128 values");
  uint64_t count = box_elements(map, rank);
  size_t row = 0;
  for (uint64_t e = 0; e < count; e += 16) {
    unsigned char* chunk = to + swizzle_offset(start + e, map.swizzle);
    std::memset(chunk, 0, 16);
    for (unsigned j = 0; j < 16; ++j) {
      if (!box_element(map, rank, c, e + j, row)) continue;  // strides[0] is 0: `row` is the row's first byte
      uint64_t x = uint64_t(c[0]) + (e + j) % map.box[0];
      uint32_t code = bits_at(map.base + row, x * bits, bits);
      unsigned put = j * bits;
      chunk[put / 8] |= uint8_t(code << (put % 8));
      if (put % 8 + bits > 8) chunk[put / 8 + 1] |= uint8_t(code >> (8 - put % 8));
    }
  }
  return int64_t(count * bits / 8);
}

/// The block whose shared memory the generic address `p` (from mapa) is
/// in, and the same object's address in cake_smem (where its mbarriers are
/// keyed); aborts for an address in no block's shared memory.
Block& shared_owner(const void* p, const void** key) {
  Cluster& c = *block->cluster;
  const unsigned char* q = static_cast<const unsigned char*>(p);
  for (Block& b : c.blocks) {
    const unsigned char* base = smem_of(b);
    if (q >= base && q < base + c.smem_bytes) {
      *key = cake_smem_base() + (q - base);
      return b;
    }
  }
  fault("an address in no block's shared memory");
}

}  // namespace

/// The box at `c` into shared `dst` of each block `mask` names (0: this
/// block's alone, without a multicast), each element swizzled by its
/// offset, completing its bytes on `bar` of each (or of `signal`).
void tma_load(int rank, void* dst, const void* map_bytes, const long long* c, const void* bar, unsigned mask,
              Block* signal) {
  TensorMap map;
  std::memcpy(&map, map_bytes, sizeof map);
  uint64_t count = box_elements(map, rank);
  size_t start = static_cast<size_t>(static_cast<unsigned char*>(dst) - cake_smem_base()), from = 0;
  std::vector<Block*> to_blocks = mask == 0 ? std::vector<Block*>{block} : multicast_blocks(mask);
  for (Block* b : to_blocks) {
    unsigned char* base = smem_of(*b);
    if (map.element_bits != 0 && map.element_bits < 8) {
      mbar_complete_tx(bar, tma_load_packed(map, rank, c, base, start), signal ? signal : b);
      continue;
    }
    for (uint64_t e = 0; e < count; ++e) {
      unsigned char* to = base + swizzle_offset(start + e * map.element_bytes, map.swizzle);
      if (box_element(map, rank, c, e, from)) std::memcpy(to, map.base + from, map.element_bytes);
      else std::memset(to, 0, map.element_bytes);
    }
    mbar_complete_tx(bar, static_cast<int64_t>(count * map.element_bytes), signal ? signal : b);
  }
}

/// A CTA pair's copy (.cta_group::2): the box into this block's `dst`, its
/// bytes completing on the barrier at generic address `bar`, this block's
/// or its pair's; another block's aborts, as PTX leaves it undefined.
void tma_load_pair(int rank, void* dst, const void* map_bytes, const long long* c, const void* bar) {
  const void* key = nullptr;
  Block& owner = shared_owner(bar, &key);
  if (owner.rank != block->rank && owner.rank != (block->rank ^ 1u)) {
    fault("a pair's copy completing on a barrier outside its pair");
  }
  tma_load(rank, dst, map_bytes, c, key, 0, &owner);
}

/// Shared `src` (the box, swizzled) to the tensor at `c`; elements outside
/// the tensor are not written.
void tma_store(int rank, const void* map_bytes, const long long* c, const void* src) {
  TensorMap map;
  std::memcpy(&map, map_bytes, sizeof map);
  if (map.element_bits != 0 && map.element_bits < 8) fault("a TMA store through a packed tensor map");
  size_t start = static_cast<size_t>(static_cast<const unsigned char*>(src) - cake_smem_base()), to = 0;
  for (uint64_t e = 0; e < box_elements(map, rank); ++e)
    if (box_element(map, rank, c, e, to))
      std::memcpy(const_cast<unsigned char*>(map.base) + to,
                  cake_smem_base() + swizzle_offset(start + e * map.element_bytes, map.swizzle), map.element_bytes);
}

void bulk_load(void* dst, const void* src, unsigned bytes, const void* bar) {
  std::memcpy(dst, src, bytes);
  mbar_complete_tx(bar, bytes);
}

}  // namespace cake_host

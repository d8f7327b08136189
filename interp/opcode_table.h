// Every base instruction of CPython 3.11 (Include/opcode.h), listed once with
// what npython's evaluator does with it. Specialised forms found in a code
// object are read back to their base instruction before this table is used.
#pragma once

#include <Python.h>
#include <opcode.h>

#include <array>
#include <cstdint>

namespace npy::interp {

// kEvaluated: the dispatch loop runs it.
// kGeneratorOnly: appears only in generator and coroutine code, which npython
//   hands to CPython.
// kHandedOver: npython hands frames containing it to CPython. CACHE is one:
//   found where an instruction should start, it means the code object is
//   corrupt, and CPython's evaluator reports that as python3 does.
enum class OpcodeSupport : std::uint8_t { kUnknown, kEvaluated, kGeneratorOnly, kHandedOver };

#define NPY_OPCODE_TABLE(X)                \
  X(CACHE, kHandedOver)                    \
  X(POP_TOP, kEvaluated)                   \
  X(PUSH_NULL, kEvaluated)                 \
  X(NOP, kEvaluated)                       \
  X(UNARY_POSITIVE, kEvaluated)            \
  X(UNARY_NEGATIVE, kEvaluated)            \
  X(UNARY_NOT, kEvaluated)                 \
  X(UNARY_INVERT, kEvaluated)              \
  X(BINARY_SUBSCR, kEvaluated)             \
  X(GET_LEN, kEvaluated)                   \
  X(MATCH_MAPPING, kEvaluated)             \
  X(MATCH_SEQUENCE, kEvaluated)            \
  X(MATCH_KEYS, kEvaluated)                \
  X(PUSH_EXC_INFO, kEvaluated)             \
  X(CHECK_EXC_MATCH, kEvaluated)           \
  X(CHECK_EG_MATCH, kEvaluated)            \
  X(WITH_EXCEPT_START, kEvaluated)         \
  X(GET_AITER, kGeneratorOnly)             \
  X(GET_ANEXT, kGeneratorOnly)             \
  X(BEFORE_ASYNC_WITH, kGeneratorOnly)     \
  X(BEFORE_WITH, kEvaluated)               \
  X(END_ASYNC_FOR, kGeneratorOnly)         \
  X(STORE_SUBSCR, kEvaluated)              \
  X(DELETE_SUBSCR, kEvaluated)             \
  X(GET_ITER, kEvaluated)                  \
  X(GET_YIELD_FROM_ITER, kGeneratorOnly)   \
  X(PRINT_EXPR, kEvaluated)                \
  X(LOAD_BUILD_CLASS, kEvaluated)          \
  X(LOAD_ASSERTION_ERROR, kEvaluated)      \
  X(RETURN_GENERATOR, kGeneratorOnly)      \
  X(LIST_TO_TUPLE, kEvaluated)             \
  X(RETURN_VALUE, kEvaluated)              \
  X(IMPORT_STAR, kEvaluated)               \
  X(SETUP_ANNOTATIONS, kEvaluated)         \
  X(YIELD_VALUE, kGeneratorOnly)           \
  X(ASYNC_GEN_WRAP, kGeneratorOnly)        \
  X(PREP_RERAISE_STAR, kEvaluated)         \
  X(POP_EXCEPT, kEvaluated)                \
  X(STORE_NAME, kEvaluated)                \
  X(DELETE_NAME, kEvaluated)               \
  X(UNPACK_SEQUENCE, kEvaluated)           \
  X(FOR_ITER, kEvaluated)                  \
  X(UNPACK_EX, kEvaluated)                 \
  X(STORE_ATTR, kEvaluated)                \
  X(DELETE_ATTR, kEvaluated)               \
  X(STORE_GLOBAL, kEvaluated)              \
  X(DELETE_GLOBAL, kEvaluated)             \
  X(SWAP, kEvaluated)                      \
  X(LOAD_CONST, kEvaluated)                \
  X(LOAD_NAME, kEvaluated)                 \
  X(BUILD_TUPLE, kEvaluated)               \
  X(BUILD_LIST, kEvaluated)                \
  X(BUILD_SET, kEvaluated)                 \
  X(BUILD_MAP, kEvaluated)                 \
  X(LOAD_ATTR, kEvaluated)                 \
  X(COMPARE_OP, kEvaluated)                \
  X(IMPORT_NAME, kEvaluated)               \
  X(IMPORT_FROM, kEvaluated)               \
  X(JUMP_FORWARD, kEvaluated)              \
  X(JUMP_IF_FALSE_OR_POP, kEvaluated)      \
  X(JUMP_IF_TRUE_OR_POP, kEvaluated)       \
  X(POP_JUMP_FORWARD_IF_FALSE, kEvaluated) \
  X(POP_JUMP_FORWARD_IF_TRUE, kEvaluated)  \
  X(LOAD_GLOBAL, kEvaluated)               \
  X(IS_OP, kEvaluated)                     \
  X(CONTAINS_OP, kEvaluated)               \
  X(RERAISE, kEvaluated)                   \
  X(COPY, kEvaluated)                      \
  X(BINARY_OP, kEvaluated)                 \
  X(SEND, kGeneratorOnly)                  \
  X(LOAD_FAST, kEvaluated)                 \
  X(STORE_FAST, kEvaluated)                \
  X(DELETE_FAST, kEvaluated)               \
  X(POP_JUMP_FORWARD_IF_NOT_NONE, kEvaluated) \
  X(POP_JUMP_FORWARD_IF_NONE, kEvaluated)  \
  X(RAISE_VARARGS, kEvaluated)             \
  X(GET_AWAITABLE, kGeneratorOnly)         \
  X(MAKE_FUNCTION, kEvaluated)             \
  X(BUILD_SLICE, kEvaluated)               \
  X(JUMP_BACKWARD_NO_INTERRUPT, kGeneratorOnly) \
  X(MAKE_CELL, kEvaluated)                 \
  X(LOAD_CLOSURE, kEvaluated)              \
  X(LOAD_DEREF, kEvaluated)                \
  X(STORE_DEREF, kEvaluated)               \
  X(DELETE_DEREF, kEvaluated)              \
  X(JUMP_BACKWARD, kEvaluated)             \
  X(CALL_FUNCTION_EX, kEvaluated)          \
  X(EXTENDED_ARG, kEvaluated)              \
  X(LIST_APPEND, kEvaluated)               \
  X(SET_ADD, kEvaluated)                   \
  X(MAP_ADD, kEvaluated)                   \
  X(LOAD_CLASSDEREF, kEvaluated)           \
  X(COPY_FREE_VARS, kEvaluated)            \
  X(RESUME, kEvaluated)                    \
  X(MATCH_CLASS, kEvaluated)               \
  X(FORMAT_VALUE, kEvaluated)              \
  X(BUILD_CONST_KEY_MAP, kEvaluated)       \
  X(BUILD_STRING, kEvaluated)              \
  X(LOAD_METHOD, kEvaluated)               \
  X(LIST_EXTEND, kEvaluated)               \
  X(SET_UPDATE, kEvaluated)                \
  X(DICT_MERGE, kEvaluated)                \
  X(DICT_UPDATE, kEvaluated)               \
  X(PRECALL, kEvaluated)                   \
  X(CALL, kEvaluated)                      \
  X(KW_NAMES, kEvaluated)                  \
  X(POP_JUMP_BACKWARD_IF_NOT_NONE, kEvaluated) \
  X(POP_JUMP_BACKWARD_IF_NONE, kEvaluated) \
  X(POP_JUMP_BACKWARD_IF_FALSE, kEvaluated) \
  X(POP_JUMP_BACKWARD_IF_TRUE, kEvaluated)

struct OpcodeInfo {
  const char* name;
  OpcodeSupport support;
};

constexpr std::array<OpcodeInfo, 256> make_opcode_infos() {
  std::array<OpcodeInfo, 256> infos{};
  for (OpcodeInfo& info : infos) info = {nullptr, OpcodeSupport::kUnknown};
#define NPY_OPCODE_INFO(name, support) infos[name] = {#name, OpcodeSupport::support};
  NPY_OPCODE_TABLE(NPY_OPCODE_INFO)
#undef NPY_OPCODE_INFO
  return infos;
}

inline constexpr std::array<OpcodeInfo, 256> kOpcodeInfos = make_opcode_infos();

}  // namespace npy::interp

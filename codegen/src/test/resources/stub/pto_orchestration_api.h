// Test stub of simpler's orchestration runtime API (tensormap_and_ringbuffer), written for
// `g++ -std=c++17 -fsyntax-only` checks of generated orchestration C++. It declares the API surface
// generated code uses, with the same shapes as simpler's headers (ChipTensor, CoreTaskArgs,
// ChipTaskArgs, TaskOutputTensors, TensorCreateInfo, rt_submit_*), and keeps the compile-time checks
// that catch real codegen bugs: tensor arguments must be named lvalues, add_output takes either all
// ChipTensor or all TensorCreateInfo, get_ref may not be called on a temporary. Nothing links.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <type_traits>

#ifndef always_assert
#define always_assert(cond) ((void)(cond))
#endif

constexpr int MAX_TENSOR_DIMS = 5;

// No FP8E5M2 and no UNKNOWN, as in simpler: code naming them must fail here too.
enum class DataType : uint8_t {
    FLOAT32, FLOAT16, INT32, INT16, INT8, UINT8, BFLOAT16, INT64, UINT64, UINT16, UINT32, BOOL,
    FP8E4M3FN, FP8E8M0, FP4E2M1, DATA_TYPE_NUM
};

enum class AddressSpace : uint8_t { HOST = 0, DEVICE = 1 };

template <typename T>
uint64_t to_u64(T value);
template <typename T>
T from_u64(uint64_t bits);

struct PTO2TaskId {
    uint64_t raw;
    static constexpr PTO2TaskId invalid() { return PTO2TaskId{UINT64_MAX}; }
    constexpr bool is_valid() const { return raw != UINT64_MAX; }
    constexpr bool is_invalid() const { return raw == UINT64_MAX; }
};

struct PTOBufferHandle {
    uint64_t addr;
    uint64_t size;
};

struct ChipTensor {
    PTOBufferHandle buffer;
    PTO2TaskId owner_task_id;
    uint64_t start_offset;
    int32_t version;
    uint32_t ndims;
    DataType dtype;
    bool manual_dep;
    bool is_contiguous;
    AddressSpace address_space;
    uint32_t shapes[MAX_TENSOR_DIMS];
    uint32_t strides[MAX_TENSOR_DIMS];

    uint64_t numel() const;
    ChipTensor view(const uint32_t view_shapes[], const uint32_t view_offsets[], bool in_manual_dep = false) const;
    ChipTensor transpose(uint32_t x, uint32_t y, bool in_manual_dep = false) const;
    ChipTensor reshape(const uint32_t new_shapes[], uint32_t new_ndims, bool in_manual_dep = false) const;
};

class TensorCreateInfo {
public:
    TensorCreateInfo(const uint32_t shapes_in[], uint32_t ndims_in, DataType dtype_in = DataType::FLOAT32,
                     bool manual_dep_in = false);
    template <typename T = uint64_t>
    void set_initial_value(T value);
};

class TaskOutputTensors {
public:
    TaskOutputTensors();
    const ChipTensor& get_ref(uint32_t index) const&;
    const ChipTensor& get_ref(uint32_t index) const&& = delete;
    PTO2TaskId task_id() const;
};

class TensorRef {
public:
    TensorRef() = default;
    TensorRef(const TensorRef&) = delete;
    TensorRef& operator=(const TensorRef&) = delete;
    const ChipTensor& ref() const;
};

inline constexpr int32_t INVALID_KERNEL_ID = -1;

enum class PredicateOp : uint8_t { NONE = 0, EQ, NE, GT, LT, GE, LE };

struct MixedKernels {
    int32_t aic_kernel_id{INVALID_KERNEL_ID};
    int32_t aiv0_kernel_id{INVALID_KERNEL_ID};
    int32_t aiv1_kernel_id{INVALID_KERNEL_ID};
};

class PTO2LaunchSpec {
public:
    void set_block_num(int16_t n);
    void set_core_num(int16_t n);
    void set_require_sync_start(bool v);
};

struct CorePredicateOperand {
    const ChipTensor* tensor{nullptr};
    uint32_t ndims{0};
    uint32_t indices[MAX_TENSOR_DIMS]{};
};

struct CoreTaskPredicate {
    CorePredicateOperand operand;
    PredicateOp op{PredicateOp::NONE};
    int64_t target{0};
};

enum class PTO2ScopeMode : uint8_t { AUTO = 0, MANUAL = 1 };

template <typename T>
inline constexpr bool pto_stub_scalar_ok_v =
    std::is_arithmetic_v<std::remove_cv_t<std::remove_reference_t<T>>> ||
    std::is_enum_v<std::remove_cv_t<std::remove_reference_t<T>>>;

template <size_t MaxT, size_t MaxS>
struct Arg {
    Arg() = default;
    Arg(const Arg&) = delete;
    Arg& operator=(const Arg&) = delete;

    PTO2LaunchSpec launch_spec;

    template <typename... A>
    void add_input(A&&... a) { check_tensors<false, A...>(); }
    template <typename... A>
    void add_output(A&&... a) { check_tensors<true, A...>(); }
    template <typename... A>
    void add_inout(A&&... a) { check_tensors<false, A...>(); }
    template <typename... A>
    void add_no_dep(A&&... a) { check_tensors<false, A...>(); }
    template <typename... A>
    void add_scalar(A&&... a) {
        static_assert(sizeof...(A) >= 1 && (pto_stub_scalar_ok_v<A> && ...), "add_scalar: arithmetic or enum only");
    }
    template <typename... A>
    void dump(A&&... a) {
        static_assert((std::is_lvalue_reference_v<A> && ...), "dump: lvalues only");
    }
    void set_dependencies(const PTO2TaskId* deps, uint32_t count);
    void set_allow_early_resolve(bool v = true);
    void set_predicate(const CoreTaskPredicate& pred);

    const TensorRef& tensor(int32_t i) const;
    uint64_t scalar(int32_t i) const;

private:
    template <bool output, typename... A>
    static void check_tensors() {
        static_assert(sizeof...(A) >= 1, "at least one tensor");
        static_assert((std::is_lvalue_reference_v<A> && ...), "temporaries are not allowed: bind views to a name");
        if constexpr (output) {
            static_assert((std::is_same_v<std::decay_t<A>, ChipTensor> && ...) ||
                              (std::is_same_v<std::decay_t<A>, TensorCreateInfo> && ...),
                          "add_output: all ChipTensor or all TensorCreateInfo");
        } else {
            static_assert((std::is_same_v<std::decay_t<A>, ChipTensor> && ...), "tensor arguments must be ChipTensor");
        }
    }
};

using CoreTaskArgs = Arg<32, 16>;
struct ChipTaskArgs : Arg<256, 128> {};

struct PTO2OrchestrationConfig {
    int expected_arg_count;
};

template <typename... CIs>
TaskOutputTensors alloc_tensors(const CIs&... cis) {
    static_assert(sizeof...(CIs) >= 1 && (std::is_same_v<CIs, TensorCreateInfo> && ...),
                  "alloc_tensors takes TensorCreateInfo values");
    return TaskOutputTensors();
}

TaskOutputTensors rt_submit_task(const MixedKernels& mixed_kernels, const CoreTaskArgs& args);
TaskOutputTensors rt_submit_aic_task(int32_t kernel_id, const CoreTaskArgs& args);
TaskOutputTensors rt_submit_aiv_task(int32_t kernel_id, const CoreTaskArgs& args);
TaskOutputTensors rt_submit_dummy_task(const CoreTaskArgs& args);
int32_t rt_available_cluster_count();
int32_t rt_available_aiv_count();

template <typename T = uint64_t>
T get_tensor_data(const ChipTensor& tensor, uint32_t ndims, const uint32_t indices[]);
template <typename T = uint64_t>
void set_tensor_data(const ChipTensor& tensor, uint32_t ndims, const uint32_t indices[], T value);

class PTO2ScopeGuard {
public:
    explicit PTO2ScopeGuard(PTO2ScopeMode mode = PTO2ScopeMode::AUTO);
    ~PTO2ScopeGuard();
};

#define PTO2_STUB_CAT_I(x, y) x##y
#define PTO2_STUB_CAT(x, y) PTO2_STUB_CAT_I(x, y)
#define PTO2_SCOPE(...) if (PTO2ScopeGuard PTO2_STUB_CAT(pto2_scope_, __COUNTER__){__VA_ARGS__}; true)

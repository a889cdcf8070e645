// A batch of supersteps recorded as a CUDA graph (stream capture), so that a batch identical to
// the last can be launched again without the host issuing it (superstep_batch.cuh). Recording
// costs about what launching does; the gain is in the replays, where one graph launch stands
// for every launch of sixteen supersteps.
//
// Two recordings count as the same work when their nodes are, in order: the same kernels with the
// same launch shapes, the same memsets or the same copies (empty nodes only order the others).
// Anything else never counts as the same. Kernel parameter values are not compared: their padding
// bytes differ from launch to launch. What makes them equal is the caller's part: the iteration
// issues the same operations with the same constants (medusa-cc's proof), and the host state of
// the engines and of the session repeats (PartitionEngine::HostStepState, PartitionBatches).
#pragma once

#include <medusa/backend/cuda/check.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace medusa::gpu {

class BatchGraph {
 public:
  BatchGraph() = default;
  BatchGraph(const BatchGraph&) = delete;
  BatchGraph& operator=(const BatchGraph&) = delete;
  ~BatchGraph() { forget(); }

  bool recording() const { return recording_; }
  // Whether the last recording launched was the same work as the one before it.
  bool repeated() const { return repeated_; }

  void begin(cudaStream_t s) {
    // Relaxed: the host may still allocate while a batch is issued (first use of a buffer).
    MEDUSA_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    recording_ = true;
  }
  // Ends the recording and launches it (the last graph again when it is the same work).
  void end_and_launch(cudaStream_t s) {
    end(s);
    replay(s);
  }
  // Ends the recording; replay() then launches it (the last graph again when it is the same work).
  void end(cudaStream_t s) {
    recording_ = false;
    cudaGraph_t graph = nullptr;
    MEDUSA_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    std::vector<unsigned char> signature;
    const bool comparable = signature_of(graph, signature);
    repeated_ = comparable && exec_ != nullptr && signature == signature_;
    if (!repeated_) {
      if (exec_ != nullptr) cudaGraphExecDestroy(std::exchange(exec_, nullptr));
      const cudaError_t err = cudaGraphInstantiate(&exec_, graph, 0);
      if (err != cudaSuccess) {
        cudaGraphDestroy(graph);
        exec_ = nullptr;
        MEDUSA_CUDA_CHECK(err);
      }
      signature_ = comparable ? std::move(signature) : std::vector<unsigned char>{};
    }
    cudaGraphDestroy(graph);
  }
  // Launches the last recording again.
  void replay(cudaStream_t s) { MEDUSA_CUDA_CHECK(cudaGraphLaunch(exec_, s)); }
  // Ends a recording cut short by an error (the work recorded is dropped).
  void abandon(cudaStream_t s) {
    if (!recording_) return;
    recording_ = false;
    cudaGraph_t graph = nullptr;
    if (cudaStreamEndCapture(s, &graph) == cudaSuccess && graph != nullptr) cudaGraphDestroy(graph);
    cudaGetLastError();
  }
  void forget() {
    if (exec_ != nullptr) cudaGraphExecDestroy(std::exchange(exec_, nullptr));
    signature_.clear();
    repeated_ = false;
  }

 private:
  template <class... T>
  static void append(std::vector<unsigned char>& out, const T&... values) {
    const auto one = [&out](const auto& value) {
      const auto* p = reinterpret_cast<const unsigned char*>(&value);
      out.insert(out.end(), p, p + sizeof(value));
    };
    (one(values), ...);
  }
  // The nodes' work, in order; false when a node is not a kernel or memset.
  static bool signature_of(cudaGraph_t graph, std::vector<unsigned char>& out) {
    std::size_t n = 0;
    MEDUSA_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &n));
    std::vector<cudaGraphNode_t> nodes(n);
    if (n != 0) MEDUSA_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &n));
    append(out, n);
    for (cudaGraphNode_t node : nodes) {
      cudaGraphNodeType type{};
      MEDUSA_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
      append(out, type);
      if (type == cudaGraphNodeTypeKernel) {
        cudaKernelNodeParams p{};
        MEDUSA_CUDA_CHECK(cudaGraphKernelNodeGetParams(node, &p));
        append(out, p.func, p.gridDim, p.blockDim, p.sharedMemBytes);
      } else if (type == cudaGraphNodeTypeMemset) {
        cudaMemsetParams p{};
        MEDUSA_CUDA_CHECK(cudaGraphMemsetNodeGetParams(node, &p));
        append(out, p.dst, p.value, p.elementSize, p.width, p.height, p.pitch);
      } else if (type == cudaGraphNodeTypeMemcpy) {  // (the replica exchange's copies on partitions)
        cudaMemcpy3DParms p{};
        MEDUSA_CUDA_CHECK(cudaGraphMemcpyNodeGetParams(node, &p));
        append(out, p.srcArray, p.srcPtr, p.srcPos, p.dstArray, p.dstPtr, p.dstPos, p.extent, p.kind);
      } else if (type != cudaGraphNodeTypeEmpty) {
        return false;
      }
    }
    return true;
  }

  cudaGraphExec_t exec_ = nullptr;
  std::vector<unsigned char> signature_;
  bool recording_ = false;
  bool repeated_ = false;
};

}  // namespace medusa::gpu

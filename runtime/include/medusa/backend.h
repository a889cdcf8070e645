// Selects the backend of a translated program: CUDA when compiled by nvcc, the host (OpenMP)
// backend otherwise, unless MEDUSA_BACKEND_CUDA / MEDUSA_BACKEND_HOST says which.
#pragma once

#if !defined(MEDUSA_BACKEND_CUDA) && !defined(MEDUSA_BACKEND_HOST)
#if defined(__CUDACC__)
#define MEDUSA_BACKEND_CUDA 1
#else
#define MEDUSA_BACKEND_HOST 1
#endif
#endif

#if defined(MEDUSA_BACKEND_CUDA)
#include <medusa/backend/cuda/session.cuh>
#else
#include <medusa/backend/host/session.h>
#endif

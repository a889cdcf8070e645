// mpi_job.h over MPI_COMM_WORLD.
#include "mpi_transport.h"

#include <medusa/error.h>
#include <medusa/transport/mpi_job.h>

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace medusa::transport {

namespace {

bool g_started_here = false;

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

}  // namespace

bool mpi_available() { return true; }

void start_job() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    MEDUSA_THROW("distributed run: MPI_Init_thread failed");
  g_started_here = true;
  std::atexit(finalize_at_exit);
}

bool job_started() { return mpi_running(); }

std::uint32_t job_rank() {
  if (!mpi_running()) return 0;
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return static_cast<std::uint32_t>(r);
}

std::uint32_t job_ranks() {
  if (!mpi_running()) return 1;
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return static_cast<std::uint32_t>(n);
}

std::unique_ptr<Transport> job_transport() {
  start_job();
  return std::make_unique<MpiTransport>(MPI_COMM_WORLD);
}

void fail_job(const std::string& cause) {
  if (!mpi_running() || job_ranks() < 2) return;
  std::fflush(stdout);
  std::fprintf(stderr, "medusa: rank %u: %s\n", job_rank(), cause.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);  // (MPI_Abort does not return)
}

}  // namespace medusa::transport

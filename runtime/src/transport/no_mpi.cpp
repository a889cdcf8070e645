// mpi_job.h without MPI (MEDUSA_ENABLE_MPI=OFF, or CMake found no MPI): one process, and
// distributed runs are refused saying how to get them.
#include <medusa/error.h>
#include <medusa/transport/mpi_job.h>

namespace medusa::transport {

bool mpi_available() { return false; }

void start_job() {
  MEDUSA_THROW(
      "distributed run: this Medusa was built without MPI; install MPI (scripts/setup.sh: "
      "openmpi-bin libopenmpi-dev) and configure again with -DMEDUSA_ENABLE_MPI=ON");
}
bool job_started() { return false; }
std::uint32_t job_rank() { return 0; }
std::uint32_t job_ranks() { return 1; }
std::unique_ptr<Transport> job_transport() {
  start_job();
  return nullptr;
}
void fail_job(const std::string&) {}

}  // namespace medusa::transport

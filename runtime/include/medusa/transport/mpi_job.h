// The MPI job a distributed run belongs to (Config::distributed; `mpirun -np N ./prog --distributed`).
// Built when CMake finds MPI (MEDUSA_ENABLE_MPI); without it start_job() throws saying so and the
// rest answers as one process. This header does not include mpi.h.
#pragma once

#include <medusa/transport/transport.h>

#include <cstdint>
#include <memory>
#include <string>

namespace medusa::transport {

// Whether this Medusa was built with MPI.
bool mpi_available();

// Joins the MPI job (MPI_Init_thread, funnelled: only the thread that calls Medusa talks MPI; the
// job is finalised at exit). Calling it again does nothing. Throws medusa::Error without MPI.
// Start it as early as possible: an error before it cannot end the other ranks.
void start_job();
// Whether start_job() ran (and the job is not finalised).
bool job_started();
// This process's rank and the job's size; 0 and 1 when no job is started.
std::uint32_t job_rank();
std::uint32_t job_ranks();

// The transport between the job's ranks (starts the job if needed).
std::unique_ptr<Transport> job_transport();

// Prints "medusa: rank R: <cause>" on stderr and ends every rank of the job with exit status 1
// (MPI_Abort), so no rank waits forever for a failed one. Returns when no job of more than one
// rank is started.
void fail_job(const std::string& cause);

}  // namespace medusa::transport

//===- NcclOpen.cpp - Making NCCL communicators ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// See kiln/runtime/NcclCommunicator.h. ncclCommInitRank blocks until every
// rank has joined, with no deadline, so the ranks first agree over the
// bootstrap communicator (which has one) that each of them has NCCL and its
// device: a rank without them fails every rank with its reason instead of
// leaving the others waiting.
//
//===----------------------------------------------------------------------===//

#include "kiln/runtime/NcclCommunicator.h"

#include "NcclCommunicator.h"

#include <algorithm>
#include <cstring>

namespace kiln::rt {

using namespace nccl;

namespace {

struct RankSetup {
  const NcclLibrary *nccl = nullptr;
  std::shared_ptr<cuda::CudaDevice> device;
  ncclUniqueId id{};
  Status status;
};

/// NCCL and the device on this rank, and the id on rank 0.
RankSetup setUp(int rank, int device) {
  RankSetup setup;
  StatusOr<const NcclLibrary *> nccl = NcclLibrary::get();
  if (!nccl.isOk()) {
    setup.status = nccl.status();
    return setup;
  }
  setup.nccl = *nccl;
  StatusOr<std::shared_ptr<cuda::CudaDevice>> opened =
      cuda::CudaDevice::open(device);
  if (!opened.isOk()) {
    setup.status =
        opened.status().withContext("CUDA device " + std::to_string(device));
    return setup;
  }
  setup.device = *opened;
  setup.status = setup.device->makeCurrent();
  if (setup.status.isOk() && rank == 0) {
    ncclResult_t made = setup.nccl->ncclGetUniqueId(&setup.id);
    if (made != ncclSuccess)
      setup.status = setup.nccl->error(made, "ncclGetUniqueId");
  }
  return setup;
}

} // namespace

StatusOr<std::unique_ptr<Communicator>>
openNcclCommunicator(Communicator &bootstrap, int device,
                     const CommunicatorOptions &options) {
  int rank = bootstrap.rank(), size = bootstrap.size();
  RankSetup setup = setUp(rank, device);
  // The first rank (lowest) that failed, or `size` when none did.
  int32_t failed = setup.status.isOk() ? size : rank;
  KILN_RETURN_IF_ERROR(
      bootstrap.allReduce(&failed, &failed, 1, DType::kI32, ReduceOp::kMin)
          .withContext("opening NCCL: agreeing that every rank is ready"));
  if (!setup.status.isOk())
    return setup.status.withContext("opening NCCL on rank " +
                                    std::to_string(rank));
  if (failed < size)
    return Status(StatusCode::kUnavailable, "opening NCCL: rank " +
                                                std::to_string(failed) +
                                                " could not (see its error)");
  KILN_RETURN_IF_ERROR(
      bootstrap
          .broadcast(&setup.id, &setup.id, sizeof(setup.id), DType::kU8,
                     /*root=*/0)
          .withContext("opening NCCL: sending the NCCL id from rank 0"));
  ncclComm_t comm = nullptr;
  ncclResult_t joined =
      setup.nccl->ncclCommInitRank(&comm, size, setup.id, rank);
  if (joined != ncclSuccess)
    return setup.nccl->error(joined, "ncclCommInitRank")
        .withContext("opening NCCL on rank " + std::to_string(rank));
  auto made =
      NcclCommunicator::create(*setup.nccl, setup.device, comm, rank, size,
                               std::make_shared<NcclAbortFlag>(), options);
  if (!made.isOk())
    return made.status();
  return std::unique_ptr<Communicator>(std::move(*made));
}

StatusOr<std::vector<std::unique_ptr<Communicator>>>
openNcclGroup(const std::vector<int> &devices,
              const CommunicatorOptions &options) {
  if (devices.empty())
    return invalidArgument("openNcclGroup: no devices");
  std::vector<int> sorted = devices;
  std::sort(sorted.begin(), sorted.end());
  if (auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
      repeated != sorted.end())
    return invalidArgument("openNcclGroup: CUDA device " +
                           std::to_string(*repeated) +
                           " is listed twice (NCCL puts one rank per device)");
  StatusOr<const NcclLibrary *> nccl = NcclLibrary::get();
  if (!nccl.isOk())
    return nccl.status();
  std::vector<std::shared_ptr<cuda::CudaDevice>> opened;
  for (int device : devices) {
    StatusOr<std::shared_ptr<cuda::CudaDevice>> one =
        cuda::CudaDevice::open(device);
    if (!one.isOk())
      return one.status().withContext("CUDA device " + std::to_string(device));
    opened.push_back(*one);
  }
  int count = int(devices.size());
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  ncclResult_t made =
      (*nccl)->ncclCommInitAll(comms.data(), count, devices.data());
  if (made != ncclSuccess)
    return (*nccl)->error(made, "ncclCommInitAll");
  auto abortFlag = std::make_shared<NcclAbortFlag>();
  std::vector<std::unique_ptr<Communicator>> group;
  for (int r = 0; r < count; ++r) {
    auto one =
        NcclCommunicator::create(**nccl, opened[size_t(r)], comms[size_t(r)], r,
                                 count, abortFlag, options);
    if (!one.isOk()) {
      // Each communicator made (this one too) frees its own; abort the
      // rest. The raised flag makes the made ones abort rather than wait
      // for peers in ncclCommDestroy.
      abortFlag->raised = true;
      for (int rest = r + 1; rest < count; ++rest)
        (*nccl)->ncclCommAbort(comms[size_t(rest)]);
      return one.status();
    }
    group.push_back(std::move(*one));
  }
  return group;
}

StatusOr<std::string> ncclDescription() {
  StatusOr<const NcclLibrary *> nccl = NcclLibrary::get();
  if (!nccl.isOk())
    return nccl.status();
  return "NCCL " + ncclVersionName((*nccl)->version) + " (" + (*nccl)->path +
         ")";
}

} // namespace kiln::rt

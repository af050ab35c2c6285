import type { HyperlightApi } from "./addon-types.js";
import { HyperlightVm, type VmSizes } from "./vm.js";

/**
 * Booted VMs waiting for a run, keyed by their sizes (heap follows the run's memory limit). A run
 * takes an idle VM or boots one, so concurrent runs each get their own VM; after a run the VM is
 * restored to its clean snapshot and kept, up to `maxIdle` per size.
 */
export class VmPool {
  private readonly idle = new Map<string, HyperlightVm[]>();
  private closed = false;

  constructor(
    private readonly api: HyperlightApi,
    private readonly handlerSource: string,
    private readonly maxIdle: number,
  ) {}

  async acquire(sizes: VmSizes): Promise<HyperlightVm> {
    const waiting = this.idle.get(key(sizes));
    const vm = waiting?.pop();
    if (vm !== undefined) return vm;
    return HyperlightVm.boot(this.api, sizes, this.handlerSource);
  }

  /** Restores the VM and keeps it, or disposes of it when it cannot be restored or is not needed. */
  async release(vm: HyperlightVm): Promise<void> {
    const usable = await vm.reset();
    const waiting = this.idle.get(key(vm.sizes)) ?? [];
    if (!usable || this.closed || waiting.length >= this.maxIdle) {
      await vm.dispose();
      return;
    }
    waiting.push(vm);
    this.idle.set(key(vm.sizes), waiting);
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(all.map((vm) => vm.dispose()));
  }
}

function key(sizes: VmSizes): string {
  return `${sizes.heapBytes}/${sizes.scratchBytes}/${sizes.inputBufferBytes}/${sizes.outputBufferBytes}`;
}

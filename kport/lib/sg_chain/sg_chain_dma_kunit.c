// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite sg_chain_dma: chained lists built by sg_alloc_table_chained()
 * mapped by the kernel's own DMA code on a real device of the machine, and
 * the mapping itself checked:
 *  - behind an IOMMU (dma-iommu): the segments are the ones the model of
 *    sg_chain_dma_cases.h predicts (the model a userspace IOMMU fake is
 *    held to as well), they respect the device's segment limits, every
 *    page of every entry translates back to its own page and offset, the
 *    list's own offsets and lengths come back, and unmap removes every
 *    translation;
 *  - with swiotlb forced: the bytes reach the bounce slots for the device,
 *    come back to the entries' pages on sync for the CPU and on unmap (and
 *    not for DMA_TO_DEVICE), and a full pool refuses a list without
 *    keeping a slot;
 *  - behind the architecture's own IOMMU (sparc64's sun4u IOMMU, the
 *    sun4m SBus IOMMU of sparc32, powerpc's TCE tables and alpha's
 *    scatter-gather arenas, whose map_sg walks the list itself; alpha's
 *    up to 128 entries, unchained): the
 *    segments stay within the device's limits, no two of them that follow
 *    on in IOVA space could have been merged, every IOMMU page of every
 *    entry translates back through the IOMMU's own table to its own page
 *    and offset, and unmap takes every translation down;
 *  - mapped directly (dma-direct): one segment per entry, at the
 *    entry's own bus address, whatever the length of the chain.
 * Without such a device the cases skip, saying why.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/dma-direct.h>
#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#if defined(CONFIG_SPARC) || defined(CONFIG_PPC64)
#include <asm/iommu.h>
#endif
#ifdef CONFIG_SPARC32
#include <asm/cpu_type.h>
#endif
#ifdef CONFIG_PPC64
#include <asm/tce.h>
#include <linux/init.h>
#endif

#include "sg_chain_compat.h"
#include "sg_chain_dma_cases.h"

#define SG_CHAIN_DMA_MAX	2048	/* the largest of sg_chain_dma_sizes */
/* Blocks of 1024 contiguous pages, or the largest the allocator gives. */
#define SG_CHAIN_DMA_BLOCK_ORDER	\
	(SG_CHAIN_MAX_PAGE_ORDER < 10 ? SG_CHAIN_MAX_PAGE_ORDER : 10)
#define SG_CHAIN_DMA_BLOCK	BIT(SG_CHAIN_DMA_BLOCK_ORDER)

/* How the suite's device maps a list: which cases can run on it. */
enum sg_chain_dma_path {
	SG_CHAIN_DMA_IOMMU,		/* dma-iommu */
	SG_CHAIN_DMA_SWIOTLB,		/* dma-direct, bouncing forced */
	SG_CHAIN_DMA_ARCH_IOMMU,	/* the architecture's own IOMMU */
	SG_CHAIN_DMA_DIRECT,		/* dma-direct, bus addresses */
};

static const char *const sg_chain_dma_path_names[] = {
	[SG_CHAIN_DMA_IOMMU] = "behind a dma-iommu domain",
	[SG_CHAIN_DMA_SWIOTLB] = "bounced through swiotlb",
	[SG_CHAIN_DMA_ARCH_IOMMU] = "behind the architecture's IOMMU",
	[SG_CHAIN_DMA_DIRECT] = "mapped directly",
};

/* Found and allocated once for the suite. */
static struct sg_chain_dma {
	struct device *dev;
	enum sg_chain_dma_path path;
	struct iommu_domain *domain;	/* SG_CHAIN_DMA_IOMMU's */
	unsigned long io_page;		/* the step of the translation checks */
	struct page *pages[SG_CHAIN_DMA_MAX];	/* single pages */
	struct page *blocks[SG_CHAIN_DMA_MAX / SG_CHAIN_DMA_BLOCK];
	unsigned int seg_len[SG_CHAIN_DMA_MAX];
	unsigned int model_len[SG_CHAIN_DMA_MAX];	/* a model's segments */
	unsigned int seg_first[SG_CHAIN_DMA_MAX];	/* its first entry's bytes */
	dma_addr_t seg_addr[SG_CHAIN_DMA_MAX];
} *sg_chain_dma;

#ifdef CONFIG_SPARC64
/*
 * sun4u PCI: the IOMMU of the device's bus (dev->archdata), its page table
 * read the way dma_4u_map_sg() writes it. sun4v's hypervisor IOMMU keeps
 * its table out of reach (its page_table stays NULL): not translated here.
 */
static bool sg_chain_dma_arch_iommu(struct device *dev)
{
	struct iommu *iommu = dev->archdata.iommu;

	return iommu && iommu->page_table;
}

static unsigned long sg_chain_dma_arch_io_page(struct device *dev)
{
	struct iommu *iommu = dev->archdata.iommu;

	return 1UL << iommu->tbl.table_shift;
}

/*
 * Whether the mapper joins an entry that starts at IOVA @start to the open
 * segment that ends at @end, the limits permitting: dma_4u_map_sg() does
 * where the IOVA follows on.
 */
static bool sg_chain_dma_arch_joins(dma_addr_t end, dma_addr_t start)
{
	return end == start;
}

/* The physical address @dma translates to, 0 where nothing is mapped. */
static phys_addr_t sg_chain_dma_arch_iova_to_phys(struct device *dev,
						  dma_addr_t dma)
{
	struct iommu *iommu = dev->archdata.iommu;
	struct iommu_map_table *tbl = &iommu->tbl;
	unsigned long entry, pte, io_page = 1UL << tbl->table_shift;

	if (dma < tbl->table_map_base)
		return 0;
	entry = (dma - tbl->table_map_base) >> tbl->table_shift;
	/* Past the pools (their ends inclusive) and the large pool, if any. */
	if (entry > tbl->pools[tbl->nr_pools - 1].end &&
	    entry >= tbl->large_pool.end)
		return 0;
	pte = iopte_val(iommu->page_table[entry]);
	/* Unmapping points an entry at the dummy page. */
	if (!(pte & IOPTE_VALID) || (pte & IOPTE_PAGE) == iommu->dummy_page_pa)
		return 0;
	return (pte & IOPTE_PAGE & ~(io_page - 1)) | (dma & (io_page - 1));
}
#elif defined(CONFIG_SPARC32)
/*
 * sun4m's SBus IOMMU (__sbus_iommu_map_sg()): one segment per entry, its
 * pages at consecutive IOVAs, each IOPTE written by MKIOPTE() and cleared
 * to 0 on unmap. Every SBus device shares it through dev->archdata.
 */
static bool sg_chain_dma_arch_iommu(struct device *dev)
{
	struct iommu_struct *iommu = dev->archdata.iommu;

	/* sun4d's io-unit keeps a struct iounit_struct there instead. */
	return sparc_cpu_model != sun4d && !dev_is_pci(dev) &&
	       get_dma_ops(dev) && iommu && iommu->page_table;
}

static unsigned long sg_chain_dma_arch_io_page(struct device *dev)
{
	return PAGE_SIZE;
}

/* It maps entry for entry and joins nothing. */
static bool sg_chain_dma_arch_joins(dma_addr_t end, dma_addr_t start)
{
	return false;
}

static phys_addr_t sg_chain_dma_arch_iova_to_phys(struct device *dev,
						  dma_addr_t dma)
{
	struct iommu_struct *iommu = dev->archdata.iommu;
	unsigned long pte;

	if (dma < iommu->start || dma > iommu->end)
		return 0;
	pte = iopte_val(iommu->page_table[(dma - iommu->start) >> PAGE_SHIFT]);
	if (!(pte & IOPTE_VALID))
		return 0;
	/* MKIOPTE() keeps the page frame number 8 bits up. */
	return ((phys_addr_t)(pte & IOPTE_PAGE) << 4) | (dma & ~PAGE_MASK);
}
#elif defined(CONFIG_PPC64)
/*
 * powerpc's TCE tables (ppc_iommu_map_sg()), read through the table's own
 * get(): on pseries a hypercall. A device with a direct window bypasses
 * the tables for all of RAM (dma_ops_bypass) or for part of it
 * (bus_dma_limit, with pmem): neither is taken for one behind them.
 */
static bool sg_chain_dma_arch_iommu(struct device *dev)
{
	struct iommu_table *tbl = get_iommu_table_base(dev);

	return get_dma_ops(dev) == &dma_iommu_ops && !dev->dma_ops_bypass &&
	       !dev->bus_dma_limit && tbl && tbl->it_ops->get;
}

static unsigned long sg_chain_dma_arch_io_page(struct device *dev)
{
	struct iommu_table *tbl = get_iommu_table_base(dev);

	return IOMMU_PAGE_SIZE(tbl);
}

/* ppc_iommu_map_sg() joins as dma_4u_map_sg() does, unless told not to. */
static bool sg_chain_dma_arch_joins(dma_addr_t end, dma_addr_t start)
{
	return end == start && !strstr(saved_command_line, "iommu=novmerge");
}

static phys_addr_t sg_chain_dma_arch_iova_to_phys(struct device *dev,
						  dma_addr_t dma)
{
	struct iommu_table *tbl = get_iommu_table_base(dev);
	unsigned long entry = dma >> tbl->it_page_shift, tce;
	unsigned long io_page = IOMMU_PAGE_SIZE(tbl);

	/* Within the table, or the hypercall fails and warns. */
	if (entry < tbl->it_offset || entry >= tbl->it_offset + tbl->it_size)
		return 0;
	tce = tbl->it_ops->get(tbl, entry);
	/* Unmapping clears the entry, permissions and all. */
	if (!(tce & (TCE_PCI_READ | TCE_PCI_WRITE)))
		return 0;
	return (tce & ~(io_page - 1)) | (dma & (io_page - 1));
}
#elif defined(CONFIG_ALPHA)
/*
 * alpha's PCI mapper (alpha_pci_map_sg()): a run of physically contiguous
 * entries goes to the fixed direct-map window (or the DAC window above
 * 4 GiB), a run it merges virtually (page-aligned seams) to the hose's
 * scatter-gather arena, whose table is read here the way mk_iommu_pte()
 * writes it. The arena's layout is private to arch/alpha/kernel.
 */
#include <asm/machvec.h>
#include "../../arch/alpha/kernel/pci_impl.h"

static struct pci_iommu_arena *sg_chain_dma_arch_arena(struct device *dev)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	struct pci_controller *hose = pdev->sysdata;

	/* The arena the mapper picks for the device's mask. */
	if (hose->sg_pci &&
	    hose->sg_pci->dma_base + hose->sg_pci->size - 1 <= pdev->dma_mask)
		return hose->sg_pci;
	return hose->sg_isa;
}

static bool sg_chain_dma_arch_iommu(struct device *dev)
{
	return dev_is_pci(dev) && get_dma_ops(dev) == &alpha_pci_ops &&
	       alpha_mv.mv_pci_tbi && sg_chain_dma_arch_arena(dev);
}

static unsigned long sg_chain_dma_arch_io_page(struct device *dev)
{
	return PAGE_SIZE;
}

/*
 * sg_classify() joins what is contiguous, and, through the arena, any
 * seam on page boundaries at both sides; the IOVA need not follow on.
 */
static bool sg_chain_dma_arch_joins(dma_addr_t end, dma_addr_t start)
{
	return end == start || (!(end & ~PAGE_MASK) && !(start & ~PAGE_MASK));
}

/* Whether @dma lies in a window that maps without the IOMMU, at all times. */
static bool sg_chain_dma_arch_window(struct device *dev, dma_addr_t dma)
{
	return (dma >= __direct_map_base &&
		dma - __direct_map_base < __direct_map_size) ||
	       (alpha_mv.pci_dac_offset && dma >= alpha_mv.pci_dac_offset);
}

static phys_addr_t sg_chain_dma_arch_iova_to_phys(struct device *dev,
						  dma_addr_t dma)
{
	struct pci_iommu_arena *arena = sg_chain_dma_arch_arena(dev);
	unsigned long pte;

	if (alpha_mv.pci_dac_offset && dma >= alpha_mv.pci_dac_offset)
		return dma - alpha_mv.pci_dac_offset;
	if (sg_chain_dma_arch_window(dev, dma))
		return dma - __direct_map_base;
	if (dma < arena->dma_base || dma - arena->dma_base >= arena->size)
		return 0;
	pte = arena->ptes[(dma - arena->dma_base) >> PAGE_SHIFT];
	/* Bit 0 is valid; freeing writes 0, reserving IOMMU_RESERVED_PTE. */
	if (!(pte & 1) || pte == IOMMU_RESERVED_PTE)
		return 0;
	return ((pte >> 1) << PAGE_SHIFT) | (dma & ~PAGE_MASK);
}
#else
static bool sg_chain_dma_arch_iommu(struct device *dev)
{
	return false;
}

static phys_addr_t sg_chain_dma_arch_iova_to_phys(struct device *dev,
						  dma_addr_t dma)
{
	return 0;
}

static unsigned long sg_chain_dma_arch_io_page(struct device *dev)
{
	return PAGE_SIZE;
}

static bool sg_chain_dma_arch_joins(dma_addr_t end, dma_addr_t start)
{
	return false;
}
#endif

#ifndef CONFIG_ALPHA
/* Only alpha's mapper puts some segments in a window outside its IOMMU. */
static bool sg_chain_dma_arch_window(struct device *dev, dma_addr_t dma)
{
	return false;
}
#endif

/* How @dev maps, or false if none of the cases can check it. */
static bool sg_chain_dma_path_of(struct device *dev,
				 enum sg_chain_dma_path *path,
				 struct iommu_domain **domain)
{
	struct iommu_domain *d = iommu_get_domain_for_dev(dev);

	*domain = NULL;
	if (d && (d->type & __IOMMU_DOMAIN_DMA_API)) {
		*path = SG_CHAIN_DMA_IOMMU;
		*domain = d;
	} else if (d) {
		return false;	/* identity or blocked */
	} else if (is_swiotlb_force_bounce(dev) && !get_dma_ops(dev)) {
		/* Forced bouncing reaches dma-direct's devices only. */
		*path = SG_CHAIN_DMA_SWIOTLB;
	} else if (sg_chain_dma_arch_iommu(dev)) {
		*path = SG_CHAIN_DMA_ARCH_IOMMU;
	} else if (!get_dma_ops(dev)) {
		*path = SG_CHAIN_DMA_DIRECT;
	} else {
		return false;
	}
	return true;
}

/*
 * @dev, if it maps on a path earlier in the order than the device so far
 * (and, if @arch_only, behind the architecture's IOMMU).
 */
static void sg_chain_dma_consider(struct sg_chain_dma *ctx, struct device *dev,
				  bool arch_only)
{
	enum sg_chain_dma_path path;
	struct iommu_domain *domain;

	if (!sg_chain_dma_path_of(dev, &path, &domain) ||
	    (arch_only && path != SG_CHAIN_DMA_ARCH_IOMMU) ||
	    (ctx->dev && path >= ctx->path))
		return;
	put_device(ctx->dev);
	/* The reference is kept for the suite. */
	ctx->dev = get_device(dev);
	ctx->path = path;
	ctx->domain = domain;
}

/* sparc32's SBus devices, behind its IOMMU, are platform devices. */
static int sg_chain_dma_consider_platform(struct device *dev, void *data)
{
	sg_chain_dma_consider(data, dev, true);
	return 0;
}

/*
 * The device the suite maps on: the first PCI device on the path that
 * the machine is about (an IOMMU or forced bouncing before dma-direct), or
 * a platform device behind the architecture's IOMMU where that comes first.
 */
static void sg_chain_dma_device(struct sg_chain_dma *ctx)
{
	struct pci_dev *pdev = NULL;

	for_each_pci_dev(pdev)
		sg_chain_dma_consider(ctx, &pdev->dev, false);
	bus_for_each_dev(&platform_bus_type, NULL, ctx,
			 sg_chain_dma_consider_platform);
	/* dma-iommu's granule is PAGE_SIZE where its cases run. */
	if (ctx->dev)
		ctx->io_page = ctx->path == SG_CHAIN_DMA_ARCH_IOMMU ?
			       min(sg_chain_dma_arch_io_page(ctx->dev), PAGE_SIZE) :
			       PAGE_SIZE;
}

/* Where a list's pages are. */
enum sg_chain_dma_placement {
	SG_CHAIN_DMA_SCATTERED,		/* no two adjacent */
	SG_CHAIN_DMA_CONTIGUOUS,	/* all adjacent */
	/*
	 * Two adjacent, then one apart, and so on: runs that a mapper
	 * merging the seams in IOVA space (alpha's) maps page by page.
	 */
	SG_CHAIN_DMA_RUNS,
	SG_CHAIN_DMA_PLACEMENTS
};

static const char *const sg_chain_dma_placement_names[] = {
	[SG_CHAIN_DMA_SCATTERED] = "scattered",
	[SG_CHAIN_DMA_CONTIGUOUS] = "contiguous",
	[SG_CHAIN_DMA_RUNS] = "runs of two",
};

/* One list to map: a size, a layout of entries, and where its pages are. */
struct sg_chain_dma_case {
	unsigned int nents;
	unsigned int layout;
	enum sg_chain_dma_placement placement;
};

/*
 * A copy of the list being mapped (@sg_chain_dma_busy while it is), for
 * the panic notifier and the case's exit: a mapper that oopses on a
 * chained list (a BUG on a link taken for data) must not take the list
 * size with it, whether the oops panics or, as on sparc32, which has no
 * panic_on_oops, only ends the case's thread, stack and all.
 */
static struct sg_chain_dma_case sg_chain_dma_mapping;
static const char *sg_chain_dma_mapper;	/* the name of the case mapping it */
static bool sg_chain_dma_busy;

static void sg_chain_dma_start(struct kunit *test,
			       const struct sg_chain_dma_case *c)
{
	sg_chain_dma_mapping = *c;
	sg_chain_dma_mapper = test->name;
	/* The copy is whole before a panic on another CPU sees it busy. */
	smp_store_release(&sg_chain_dma_busy, true);
}

static void sg_chain_dma_done(void)
{
	WRITE_ONCE(sg_chain_dma_busy, false);
}

static int sg_chain_dma_panic(struct notifier_block *nb, unsigned long event,
			      void *data)
{
	const struct sg_chain_dma_case *c = &sg_chain_dma_mapping;

	/* Pairs with sg_chain_dma_start(): busy means the copy is whole. */
	if (smp_load_acquire(&sg_chain_dma_busy))
		pr_emerg("sg_chain_dma: crashed mapping a list of %u entries (%s, %s pages)\n",
			 c->nents, sg_chain_dma_layout_names[c->layout],
			 sg_chain_dma_placement_names[c->placement]);
	return NOTIFY_DONE;
}

static struct notifier_block sg_chain_dma_panic_nb = {
	.notifier_call = sg_chain_dma_panic,
};

static void sg_chain_dma_suite_exit(struct kunit_suite *suite)
{
	struct sg_chain_dma *ctx = sg_chain_dma;
	unsigned int i;

	if (!ctx)
		return;
	for (i = 0; i < ARRAY_SIZE(ctx->pages) && ctx->pages[i]; i++)
		__free_page(ctx->pages[i]);
	for (i = 0; i < ARRAY_SIZE(ctx->blocks) && ctx->blocks[i]; i++)
		__free_pages(ctx->blocks[i], SG_CHAIN_DMA_BLOCK_ORDER);
	put_device(ctx->dev);
	atomic_notifier_chain_unregister(&panic_notifier_list,
					 &sg_chain_dma_panic_nb);
	kfree(ctx);
	sg_chain_dma = NULL;
}

static int sg_chain_dma_suite_init(struct kunit_suite *suite)
{
	struct sg_chain_dma *ctx;
	unsigned int i;

	/* Disks probed asynchronously must not map while the pool is full. */
	wait_for_device_probe();
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	sg_chain_dma = ctx;
	atomic_notifier_chain_register(&panic_notifier_list,
				       &sg_chain_dma_panic_nb);
	sg_chain_dma_device(ctx);
	if (!ctx->dev)
		return 0;
	/* Single pages, used in a stride order: hardly ever adjacent. */
	for (i = 0; i < ARRAY_SIZE(ctx->pages); i++) {
		ctx->pages[i] = alloc_page(GFP_KERNEL);
		if (!ctx->pages[i])
			goto nomem;
	}
	/* Physically contiguous blocks, for contiguous pages and runs. */
	for (i = 0; i < ARRAY_SIZE(ctx->blocks); i++) {
		ctx->blocks[i] = alloc_pages(GFP_KERNEL | __GFP_NOWARN,
					     SG_CHAIN_DMA_BLOCK_ORDER);
		if (!ctx->blocks[i])
			goto nomem;
	}
	return 0;
nomem:
	sg_chain_dma_suite_exit(suite);
	return -ENOMEM;
}

/*
 * A case whose thread an oops ended without a panic (sparc32) left the
 * list marked busy, and the state of the mapper unknown: the cases after
 * it do not run, and each says on which list it died.
 */
static int sg_chain_dma_init(struct kunit *test)
{
	const struct sg_chain_dma_case *c = &sg_chain_dma_mapping;

	test->priv = sg_chain_dma;
	/* Pairs with sg_chain_dma_start(), as in the panic notifier. */
	if (smp_load_acquire(&sg_chain_dma_busy)) {
		kunit_err(test, "not run: a case before died mapping a list of %u entries (%s, %s pages)",
			  c->nents, sg_chain_dma_layout_names[c->layout],
			  sg_chain_dma_placement_names[c->placement]);
		return -EBUSY;
	}
	return 0;
}

static void sg_chain_dma_restore_limits(struct device *dev);

/*
 * A case that stopped on an assertion says on which list, and gives the
 * device back its limits. A case that did not run leaves the mark of the
 * one that died.
 */
static void sg_chain_dma_exit(struct kunit *test)
{
	const struct sg_chain_dma_case *c = &sg_chain_dma_mapping;

	if (sg_chain_dma && sg_chain_dma->dev)
		sg_chain_dma_restore_limits(sg_chain_dma->dev);

	/* Pairs with sg_chain_dma_start(), as in the panic notifier. */
	if (!smp_load_acquire(&sg_chain_dma_busy) || sg_chain_dma_mapper != test->name)
		return;
	kunit_err(test, "stopped mapping a list of %u entries (%s, %s pages)",
		  c->nents, sg_chain_dma_layout_names[c->layout],
		  sg_chain_dma_placement_names[c->placement]);
	sg_chain_dma_done();
}

/*
 * Each case below maps every size of @sizes (up to SG_MAX_SEGMENTS) on
 * each placement of pages, in one layout: plain
 * cases, not parameterised ones, so that a case can skip with its reason
 * (6.1 prints a skipped parameter as a bare "ok").
 */
static void sg_chain_dma_each_list(struct kunit *test, unsigned int layout,
				   const unsigned int *sizes, unsigned int nsizes,
				   void (*one)(struct kunit *test,
					       const struct sg_chain_dma_case *c))
{
	struct sg_chain_dma_case c = { .layout = layout };
	unsigned int i, placement;

	for (placement = 0; placement < SG_CHAIN_DMA_PLACEMENTS; placement++) {
		for (i = 0; i < nsizes; i++) {
			c.nents = sizes[i];
			/* Without chaining a list is one table. */
			if (c.nents > SG_MAX_SEGMENTS)
				continue;
			c.placement = placement;
			sg_chain_dma_start(test, &c);
			one(test, &c);
			sg_chain_dma_done();
		}
	}
}

static struct page *sg_chain_dma_page(struct sg_chain_dma *ctx,
				      const struct sg_chain_dma_case *c,
				      unsigned int i)
{
	unsigned int b = i;

	switch (c->placement) {
	case SG_CHAIN_DMA_RUNS:
		/* Every third page a single one: the blocks' are never it. */
		if (i % 3 == 2)
			break;
		b = i / 3 * 2 + i % 3;
		fallthrough;
	case SG_CHAIN_DMA_CONTIGUOUS:
		return nth_page(ctx->blocks[b / SG_CHAIN_DMA_BLOCK],
				b % SG_CHAIN_DMA_BLOCK);
	default:
		break;
	}
	return ctx->pages[(i * 769) % SG_CHAIN_DMA_MAX];
}

/* Bumped for every list built: no two lists' bytes are alike. */
static unsigned int sg_chain_dma_generation;

/*
 * The byte at @pos of entry @i in the list of @generation, as the CPU (@who
 * 0) or the device (1, then 2) wrote it.
 */
static u8 sg_chain_dma_byte(unsigned int generation, unsigned int i,
			    unsigned int pos, int who)
{
	u32 x = (generation * 0x9e3779b9u) ^ (i * 0x85ebca6bu) ^
		(pos * 0xc2b2ae35u) ^ (who * 0x27d4eb2fu);

	return (x ^ (x >> 15)) * 0x2c1b3c6du >> 24;
}

/*
 * A chained list of @c from the pools, its entries on the suite's pages,
 * filled with the CPU's bytes. Returns the list's generation, or 0 if the
 * pools are empty.
 */
static unsigned int sg_chain_dma_build(struct kunit *test,
				       struct sg_table *table,
				       const struct sg_chain_dma_case *c)
{
	unsigned int gen = ++sg_chain_dma_generation ?: ++sg_chain_dma_generation;
	struct sg_chain_dma *ctx = test->priv;
	struct scatterlist *sg;
	unsigned int i, off, len, k;

	if (sg_alloc_table_chained(table, c->nents, NULL, 0))
		return 0;
	for_each_sgtable_sg(table, sg, i) {
		u8 *p;

		sg_chain_dma_entry(c->layout, i, &off, &len);
		sg_set_page(sg, sg_chain_dma_page(ctx, c, i), len, off);
		p = sg_virt(sg);
		for (k = 0; k < len; k++)
			p[k] = sg_chain_dma_byte(gen, i, k, 0);
	}
	return gen;
}

/* Whether the device reaches every page of the suite without bouncing. */
static bool sg_chain_dma_reachable(struct sg_chain_dma *ctx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ctx->pages); i++)
		if (!dma_capable(ctx->dev, phys_to_dma(ctx->dev,
						       page_to_phys(ctx->pages[i])),
				 PAGE_SIZE, true))
			return false;
	for (i = 0; i < ARRAY_SIZE(ctx->blocks); i++)
		if (!dma_capable(ctx->dev, phys_to_dma(ctx->dev,
						       page_to_phys(ctx->blocks[i])),
				 SG_CHAIN_DMA_BLOCK * PAGE_SIZE, true))
			return false;
	return true;
}

/* Skips the case unless the suite's device maps on @path. */
static void sg_chain_dma_skip_unless(struct kunit *test,
				     enum sg_chain_dma_path path)
{
	struct sg_chain_dma *ctx = test->priv;

	if (!ctx || !ctx->dev)
		kunit_skip(test, "no device that the suite can map on");
	if (ctx->path != path)
		kunit_skip(test, "not %s: %s is %s", sg_chain_dma_path_names[path],
			   dev_name(ctx->dev), sg_chain_dma_path_names[ctx->path]);
	/* What the model of the segments assumes of the IOMMU and the device. */
	if (path == SG_CHAIN_DMA_IOMMU &&
	    (1UL << __ffs(ctx->domain->pgsize_bitmap)) != PAGE_SIZE)
		kunit_skip(test, "IOMMU pages of %lu bytes: the model has PAGE_SIZE",
			   1UL << __ffs(ctx->domain->pgsize_bitmap));
	if (path == SG_CHAIN_DMA_IOMMU && dev_is_pci(ctx->dev) &&
	    to_pci_dev(ctx->dev)->untrusted)
		kunit_skip(test, "%s is untrusted: dma-iommu bounces its lists",
			   dev_name(ctx->dev));
	if (path == SG_CHAIN_DMA_IOMMU && dma_get_seg_boundary(ctx->dev) <
	    (unsigned long)SG_CHAIN_DMA_MAX * PAGE_SIZE - 1)
		kunit_skip(test, "a segment boundary below the lists: the model has none");
	if (path == SG_CHAIN_DMA_DIRECT && !sg_chain_dma_reachable(ctx))
		kunit_skip(test, "pages beyond %s's DMA mask: dma-direct would bounce them",
			   dev_name(ctx->dev));
}

/* What the IOMMU translates @dma to, 0 where nothing is mapped. */
static phys_addr_t sg_chain_dma_iova_to_phys(struct sg_chain_dma *ctx,
					     dma_addr_t dma)
{
	if (ctx->path == SG_CHAIN_DMA_IOMMU)
		return iommu_iova_to_phys(ctx->domain, dma);
	return sg_chain_dma_arch_iova_to_phys(ctx->dev, dma);
}

/*
 * Whether every IOMMU page of the list's former segments is unmapped. The
 * table may be shared with other devices of the bus, which could take a
 * freed entry at once; the allocators' next-fit hints make that rare.
 * dma-iommu gives a list one IOVA range, from its first segment on, a page
 * for each entry (every layout keeps an entry within one page, and no
 * boundary pads these lists): the whole range must be gone, not only what
 * the segments reported, which a mapper that lost an entry would not.
 */
static void sg_chain_dma_expect_unmapped(struct kunit *test,
					 const struct sg_chain_dma_case *c,
					 const dma_addr_t *addr,
					 const unsigned int *len,
					 unsigned int segs)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int i, k;

	if (ctx->path == SG_CHAIN_DMA_IOMMU && segs) {
		dma_addr_t start = addr[0] & PAGE_MASK;

		for (i = 0; i < c->nents; i++) {
			if (sg_chain_dma_iova_to_phys(ctx, start + i * PAGE_SIZE)) {
				KUNIT_FAIL(test,
					   "%u entries: page %u of the list's IOVA range still mapped",
					   c->nents, i);
				return;
			}
		}
	}
	for (i = 0; i < segs; i++) {
		/* A fixed window maps with or without the list. */
		if (ctx->path == SG_CHAIN_DMA_ARCH_IOMMU &&
		    sg_chain_dma_arch_window(ctx->dev, addr[i]))
			continue;
		for (k = 0; k < len[i]; k += ctx->io_page) {
			if (sg_chain_dma_iova_to_phys(ctx, addr[i] + k)) {
				KUNIT_FAIL(test, "%u entries: segment %u byte %u still mapped",
					   c->nents, i, k);
				return;
			}
		}
		KUNIT_EXPECT_EQ_MSG(test,
				    sg_chain_dma_iova_to_phys(ctx, addr[i] + len[i] - 1),
				    0, "%u entries: end of segment %u still mapped",
				    c->nents, i);
	}
}

/*
 * Walk the entries and the DMA segments together, byte stream against
 * byte stream: the first byte of every IOMMU page (or CPU page, if
 * smaller) of every entry must translate to its page and offset. Offsets
 * and lengths come from the case, not from the list, which dma-iommu
 * rewrote and should have restored. Notes how many bytes of its first
 * entry each segment holds (ctx->seg_first). Returns false at the first
 * difference.
 */
static bool sg_chain_dma_translations_ok(struct kunit *test,
					 const struct sg_chain_dma_case *c,
					 struct sg_table *table)
{
	struct sg_chain_dma *ctx = test->priv;
	struct scatterlist *sg, *seg = table->sgl;
	unsigned int i, k, pos = 0, off, len, step, segs = 1;

	for_each_sgtable_sg(table, sg, i) {
		phys_addr_t want, got;

		sg_chain_dma_entry(c->layout, i, &off, &len);
		if (sg->offset != off || sg->length != len) {
			KUNIT_FAIL(test, "%u entries: entry %u is %u+%u after mapping, was %u+%u",
				   c->nents, i, sg->offset, sg->length, off, len);
			return false;
		}
		want = page_to_phys(sg_chain_dma_page(ctx, c, i)) + off;
		for (k = 0; k < len; k += step) {
			dma_addr_t a;

			if (pos == sg_dma_len(seg)) {
				seg = sg_next(seg);
				pos = 0;
				if (!seg || !sg_dma_len(seg) || ++segs > table->nents) {
					KUNIT_FAIL(test, "%u entries: entry %u past the end",
						   c->nents, i);
					return false;
				}
			}
			if (!pos)
				ctx->seg_first[segs - 1] = len - k;
			a = sg_dma_address(seg) + pos;
			step = min(len - k, (unsigned int)ctx->io_page -
					    (off + k) % (unsigned int)ctx->io_page);
			step = min(step, sg_dma_len(seg) - pos);
			got = sg_chain_dma_iova_to_phys(ctx, a);
			if (got != want + k) {
				KUNIT_FAIL(test,
					   "%u entries, %s pages: entry %u byte %u maps to %pa",
					   c->nents,
					   sg_chain_dma_placement_names[c->placement],
					   i, k, &got);
				return false;
			}
			pos += step;
		}
	}
	return true;
}

/* Whether @len bytes from @dma cross a segment boundary of @mask. */
static bool sg_chain_dma_crosses(dma_addr_t dma, u64 len, unsigned long mask)
{
	return (dma & ~(dma_addr_t)mask) != ((dma + len - 1) & ~(dma_addr_t)mask);
}

/*
 * sun4u's and powerpc's mappers join an entry to the open segment whenever
 * its IOVA follows on, and alpha's wherever the seam is on page
 * boundaries, if the segment with that entry fits the device's
 * max_seg_size and its segment boundary (sun4m's joins nothing): no
 * segment could have taken the next one's first entry within the limits.
 */
static void sg_chain_dma_expect_merged(struct kunit *test,
				       const struct sg_chain_dma_case *c,
				       unsigned int segs, unsigned int max_seg,
				       unsigned long mask)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int i;

	for (i = 1; i < segs; i++) {
		dma_addr_t end = ctx->seg_addr[i - 1] + ctx->seg_len[i - 1];
		u64 joined = (u64)ctx->seg_len[i - 1] + ctx->seg_first[i];

		if (sg_chain_dma_arch_joins(end, ctx->seg_addr[i]) &&
		    joined <= max_seg &&
		    !sg_chain_dma_crosses(ctx->seg_addr[i - 1], joined, mask)) {
			KUNIT_FAIL(test,
				   "%u entries, %s pages: segment %u could take segment %u's first entry, at %pad",
				   c->nents,
				   sg_chain_dma_placement_names[c->placement],
				   i - 1, i, &ctx->seg_addr[i]);
			return;
		}
	}
}

/*
 * A list of @c built and mapped for DMA_BIDIRECTIONAL: its generation, or
 * 0, the case failed and the list freed, if the mapping failed.
 */
static unsigned int sg_chain_dma_map(struct kunit *test, struct sg_table *table,
				     const struct sg_chain_dma_case *c)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int gen = sg_chain_dma_build(test, table, c);

	KUNIT_ASSERT_NE(test, gen, 0);
	if (dma_map_sgtable(ctx->dev, table, DMA_BIDIRECTIONAL, 0)) {
		KUNIT_FAIL(test, "%u entries: dma_map_sgtable() failed", c->nents);
		sg_free_table_chained(table, 0);
		return 0;
	}
	return gen;
}

/* The bytes the first @nents entries of @layout hold. */
static u64 sg_chain_dma_total(unsigned int layout, unsigned int nents)
{
	unsigned int i, off, len;
	u64 total = 0;

	for (i = 0; i < nents; i++) {
		sg_chain_dma_entry(layout, i, &off, &len);
		total += len;
	}
	return total;
}

/*
 * Every DMA segment of @table within the device's limits as they are now
 * (max segment size, segment boundary, DMA mask), whatever the mapper
 * checks: each limit names the first segment that breaks it. The
 * segments must hold every byte of the list; each is kept for after the
 * unmap (ctx->seg_addr, ctx->seg_len).
 */
static void sg_chain_dma_segments_ok(struct kunit *test,
				     const struct sg_chain_dma_case *c,
				     struct sg_table *table)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int max_seg = dma_get_max_seg_size(ctx->dev), i;
	unsigned long mask = dma_get_seg_boundary(ctx->dev);
	u64 dma_mask = dma_get_mask(ctx->dev), mapped = 0;
	bool too_long = false, crosses = false, beyond = false;
	struct scatterlist *seg;

	for_each_sgtable_dma_sg(table, seg, i) {
		dma_addr_t a = sg_dma_address(seg);
		unsigned int l = sg_dma_len(seg);

		if (l > max_seg && !too_long) {
			KUNIT_FAIL(test,
				   "%u entries, %s pages: segment %u is %u bytes, over the max segment size %u",
				   c->nents, sg_chain_dma_placement_names[c->placement],
				   i, l, max_seg);
			too_long = true;
		}
		if (sg_chain_dma_crosses(a, l, mask) && !crosses) {
			KUNIT_FAIL(test,
				   "%u entries, %s pages: segment %u (%pad, %u bytes) crosses a boundary of mask %#lx",
				   c->nents, sg_chain_dma_placement_names[c->placement],
				   i, &a, l, mask);
			crosses = true;
		}
		if (a + l - 1 > dma_mask && !beyond) {
			KUNIT_FAIL(test,
				   "%u entries: segment %u (%pad, %u bytes) ends beyond the DMA mask %#llx",
				   c->nents, i, &a, l, dma_mask);
			beyond = true;
		}
		mapped += l;
		ctx->seg_addr[i] = a;
		ctx->seg_len[i] = l;
	}
	KUNIT_EXPECT_EQ_MSG(test, mapped, sg_chain_dma_total(c->layout, c->nents),
			    "%u entries: bytes in the segments", c->nents);
}

/* The segments @table has (as kept) against the @segs of a model, @want. */
static void sg_chain_dma_expect_model(struct kunit *test,
				      const struct sg_chain_dma_case *c,
				      struct sg_table *table,
				      const unsigned int *want, unsigned int segs)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, table->nents, segs,
			    "%u entries: %u DMA segments, the model says %u",
			    c->nents, table->nents, segs);
	for (i = 0; i < min(segs, table->nents); i++) {
		if (ctx->seg_len[i] != want[i]) {
			KUNIT_FAIL(test,
				   "%u entries: segment %u is %u bytes, the model says %u",
				   c->nents, i, ctx->seg_len[i], want[i]);
			return;
		}
	}
}

/*
 * Behind an IOMMU: segments within the device's limits, as many as the
 * model predicts for dma-iommu (the architectures' mappers merge as their
 * allocators happen to place entries), and translating back.
 */
static void sg_chain_dma_translated_one(struct kunit *test,
					const struct sg_chain_dma_case *c)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int max_seg = dma_get_max_seg_size(ctx->dev), segs, i;
	unsigned long mask = dma_get_seg_boundary(ctx->dev);
	struct sg_table table;

	if (!sg_chain_dma_map(test, &table, c))
		return;
	KUNIT_EXPECT_LE(test, table.nents, c->nents);
	/* A walk by sg_dma_len() stops where the segments end. */
	if (table.nents < c->nents) {
		struct scatterlist *after = table.sgl;

		for (i = 0; i < table.nents; i++)
			after = sg_next(after);
		KUNIT_EXPECT_EQ_MSG(test, sg_dma_len(after), 0,
				    "%u entries: no end after %u segments",
				    c->nents, table.nents);
	}
	sg_chain_dma_segments_ok(test, c, &table);
	if (ctx->path == SG_CHAIN_DMA_IOMMU) {
		segs = sg_chain_dma_model(c->layout, c->nents, max_seg, ctx->model_len);
		sg_chain_dma_expect_model(test, c, &table, ctx->model_len, segs);
	}
	if (sg_chain_dma_translations_ok(test, c, &table) &&
	    ctx->path == SG_CHAIN_DMA_ARCH_IOMMU)
		sg_chain_dma_expect_merged(test, c, table.nents, max_seg, mask);

	dma_unmap_sgtable(ctx->dev, &table, DMA_BIDIRECTIONAL, 0);
	/* Strict mode: the unmap walks the chain and takes every page down. */
	sg_chain_dma_expect_unmapped(test, c, ctx->seg_addr, ctx->seg_len,
				     table.nents);
	sg_free_table_chained(&table, 0);
}

/* dma-direct: every entry a segment of its own, at its bus address. */
static void sg_chain_dma_direct_ok(struct kunit *test,
				   const struct sg_chain_dma_case *c,
				   struct sg_table *table)
{
	struct sg_chain_dma *ctx = test->priv;
	struct scatterlist *seg;
	unsigned int i, off, len;

	KUNIT_EXPECT_EQ(test, table->nents, c->nents);
	for_each_sgtable_dma_sg(table, seg, i) {
		phys_addr_t phys;

		sg_chain_dma_entry(c->layout, i, &off, &len);
		phys = page_to_phys(sg_chain_dma_page(ctx, c, i)) + off;
		if (sg_dma_address(seg) != phys_to_dma(ctx->dev, phys) ||
		    sg_dma_len(seg) != len) {
			KUNIT_FAIL(test, "%u entries: segment %u is %pad+%u, entry %u is %pa+%u",
				   c->nents, i, &sg_dma_address(seg),
				   sg_dma_len(seg), i, &phys, len);
			return;
		}
	}
}

static void sg_chain_dma_direct_one(struct kunit *test,
				    const struct sg_chain_dma_case *c)
{
	struct sg_chain_dma *ctx = test->priv;
	struct sg_table table;

	if (!sg_chain_dma_map(test, &table, c))
		return;
	sg_chain_dma_direct_ok(test, c, &table);
	dma_unmap_sgtable(ctx->dev, &table, DMA_BIDIRECTIONAL, 0);
	sg_free_table_chained(&table, 0);
}

/*
 * Every byte of the list, in the bounce slots (the device's view) or in
 * the pages (the CPU's), against what @who wrote. Stops at the first
 * difference.
 */
static bool sg_chain_dma_bytes_ok(struct kunit *test,
				  const struct sg_chain_dma_case *c,
				  struct sg_table *table, unsigned int gen,
				  bool slots, int who, const char *when)
{
	struct sg_chain_dma *ctx = test->priv;
	struct scatterlist *sg;
	unsigned int i, k;

	for_each_sgtable_sg(table, sg, i) {
		phys_addr_t phys = dma_to_phys(ctx->dev, sg_dma_address(sg));
		const u8 *p = slots ? phys_to_virt(phys) : sg_virt(sg);

		if (slots && !sg_chain_is_swiotlb_buffer(ctx->dev, phys)) {
			KUNIT_FAIL(test, "%u entries, %s: entry %u is not bounced",
				   c->nents, when, i);
			return false;
		}
		for (k = 0; k < sg->length; k++) {
			if (p[k] != sg_chain_dma_byte(gen, i, k, who)) {
				KUNIT_FAIL(test, "%u entries, %s: entry %u byte %u: %#x, want %#x",
					   c->nents, when, i, k, p[k],
					   sg_chain_dma_byte(gen, i, k, who));
				return false;
			}
		}
	}
	return true;
}

/* The device writes its bytes (@who) into the bounce slots. */
static void sg_chain_dma_device_writes(struct kunit *test,
				       struct sg_table *table,
				       unsigned int gen, int who)
{
	struct sg_chain_dma *ctx = test->priv;
	struct scatterlist *sg;
	unsigned int i, k;

	for_each_sgtable_sg(table, sg, i) {
		u8 *p = phys_to_virt(dma_to_phys(ctx->dev, sg_dma_address(sg)));

		for (k = 0; k < sg->length; k++)
			p[k] = sg_chain_dma_byte(gen, i, k, who);
	}
}

/*
 * swiotlb forced: the bytes cross the bounce slots both ways. The device
 * writes twice (1 before the sync for the CPU, 2 before the unmap), so
 * each copy back is seen on its own; for DMA_TO_DEVICE the unmap must
 * copy nothing back.
 */
static void sg_chain_dma_swiotlb_one(struct kunit *test,
				     const struct sg_chain_dma_case *c)
{
	static const enum dma_data_direction dirs[] = {
		DMA_TO_DEVICE, DMA_FROM_DEVICE, DMA_BIDIRECTIONAL,
	};
	struct sg_chain_dma *ctx = test->priv;
	struct scatterlist *sg;
	struct sg_table table;
	unsigned int d, i, gen;

	for (d = 0; d < ARRAY_SIZE(dirs); d++) {
		enum dma_data_direction dir = dirs[d];
		bool ok = true;

		gen = sg_chain_dma_build(test, &table, c);
		KUNIT_ASSERT_NE(test, gen, 0);
		if (dma_map_sgtable(ctx->dev, &table, dir, 0)) {
			KUNIT_FAIL(test, "%u entries: dma_map_sgtable(%d) failed",
				   c->nents, dir);
			sg_free_table_chained(&table, 0);
			return;
		}
		/* The direct path maps entry for entry. */
		KUNIT_EXPECT_EQ(test, table.nents, c->nents);
		for_each_sgtable_dma_sg(&table, sg, i)
			KUNIT_EXPECT_EQ(test, sg_dma_len(sg), sg->length);
		if (dir != DMA_FROM_DEVICE)
			ok = sg_chain_dma_bytes_ok(test, c, &table, gen, true, 0,
						   "slots after map");
		if (ok && dir != DMA_TO_DEVICE) {
			sg_chain_dma_device_writes(test, &table, gen, 1);
			dma_sync_sgtable_for_cpu(ctx->dev, &table, dir);
			ok = sg_chain_dma_bytes_ok(test, c, &table, gen, false, 1,
						   "pages after sync for cpu");
			dma_sync_sgtable_for_device(ctx->dev, &table, dir);
		}
		/* The device's last word, which the unmap must (not) copy back. */
		sg_chain_dma_device_writes(test, &table, gen, 2);
		dma_unmap_sgtable(ctx->dev, &table, dir, 0);
		if (ok)
			sg_chain_dma_bytes_ok(test, c, &table, gen, false,
					      dir == DMA_TO_DEVICE ? 0 : 2,
					      "pages after unmap");
		sg_free_table_chained(&table, 0);
	}
}

/* The swiotlb pool's size; swiotlb.c is not built without CONFIG_SWIOTLB. */
static unsigned long sg_chain_dma_pool_size(void)
{
	return IS_ENABLED(CONFIG_SWIOTLB) ? swiotlb_size_or_default() : 0;
}

/*
 * Map 2048-page lists until the pool is full, then smaller ones, and
 * count what fits; free all and count again. A failed map that kept a
 * slot would leave less room the second time.
 */
static unsigned int sg_chain_dma_fill(struct kunit *test,
				      struct sg_table *tables,
				      unsigned int max_tables)
{
	static const unsigned int sizes[] = { SG_CHAIN_DMA_MAX, 64, 1 };
	struct sg_chain_dma *ctx = test->priv;
	unsigned int n = 0, s;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		struct sg_chain_dma_case c = { sizes[s], SG_CHAIN_DMA_FULL_PAGES };

		while (n < max_tables) {
			/* No assertion here: a full pool must be emptied. */
			if (!sg_chain_dma_build(test, &tables[n], &c))
				return n;
			if (dma_map_sgtable(ctx->dev, &tables[n], DMA_TO_DEVICE,
					    DMA_ATTR_SKIP_CPU_SYNC |
					    DMA_ATTR_NO_WARN)) {
				sg_free_table_chained(&tables[n], 0);
				break;
			}
			n++;
		}
	}
	return n;
}

static void sg_chain_dma_unfill(struct kunit *test, struct sg_table *tables,
				unsigned int n)
{
	struct sg_chain_dma *ctx = test->priv;

	while (n--) {
		dma_unmap_sgtable(ctx->dev, &tables[n], DMA_TO_DEVICE,
				  DMA_ATTR_SKIP_CPU_SYNC | DMA_ATTR_NO_WARN);
		sg_free_table_chained(&tables[n], 0);
	}
}

static void sg_chain_dma_test_swiotlb_full(struct kunit *test)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int max_tables, first, second = 0, tries;
	struct sg_table *tables;

	sg_chain_dma_skip_unless(test, SG_CHAIN_DMA_SWIOTLB);
	if (!IS_ENABLED(CONFIG_SWIOTLB))
		kunit_skip(test, "no swiotlb in this kernel");
	/* A 2048-page list takes 8 MiB of slots; then 64 and 1 pages. */
	max_tables = sg_chain_dma_pool_size() / (SG_CHAIN_DMA_MAX * PAGE_SIZE) +
		     SG_CHAIN_DMA_MAX / 64 + 256;
	tables = kunit_kcalloc(test, max_tables, sizeof(*tables), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tables);

	first = sg_chain_dma_fill(test, tables, max_tables);
	sg_chain_dma_unfill(test, tables, first);
	if (first == max_tables) {
		KUNIT_FAIL(test, "the pool never filled: %u lists mapped", first);
		return;
	}
	/* Another mapper may hold a slot for a moment: a leak holds it for good. */
	for (tries = 0; tries < 3; tries++) {
		second = sg_chain_dma_fill(test, tables, max_tables);
		sg_chain_dma_unfill(test, tables, second);
		if (second >= first)
			break;
	}
	KUNIT_EXPECT_GE_MSG(test, second, first,
			    "a full pool took %u lists, after failed maps %u",
			    first, second);
	kunit_info(test, "%s: a %lu MiB pool took %u lists before refusing",
		   dev_name(ctx->dev), sg_chain_dma_pool_size() >> 20, first);
}

/*
 * The limits cases: the device's max segment size, segment boundary and
 * DMA mask set for the case (0: the device's own) and put back after it,
 * and lists that a mapper merges where their IOVAs (or, alpha's direct
 * window, their pages) follow on: of whole pages, and of the mixed layout,
 * whose segments start and end inside pages. Every pairing of the sizes
 * and boundaries, and a 32-bit mask.
 */
struct sg_chain_dma_limits {
	unsigned int max_seg;
	unsigned long boundary;		/* bytes, a power of two */
	u64 mask;
};

static const struct sg_chain_dma_limits sg_chain_dma_limit_sets[] = {
	{ .max_seg = PAGE_SIZE },
	{ .max_seg = SZ_64K },
	{ .max_seg = 65535 },
	{ .boundary = SZ_64K },
	{ .boundary = SZ_1M },
	{ .max_seg = PAGE_SIZE, .boundary = SZ_64K },
	{ .max_seg = SZ_64K, .boundary = SZ_64K },
	{ .max_seg = 65535, .boundary = SZ_64K },
	{ .max_seg = PAGE_SIZE, .boundary = SZ_1M },
	{ .max_seg = SZ_64K, .boundary = SZ_1M },
	{ .max_seg = 65535, .boundary = SZ_1M },
	{ .mask = DMA_BIT_MASK(32) },
};

static const unsigned int sg_chain_dma_limit_sizes[] = { 1, 127, 128, 129, 2048 };

/* What a limits case changed on the device, to put back. */
static struct sg_chain_dma_saved {
	bool set;
	struct device_dma_parameters *parms;
	unsigned int max_seg;
	unsigned long boundary;
	u64 mask;
	struct device_dma_parameters own;	/* for a device without any */
} sg_chain_dma_saved;

static void sg_chain_dma_restore_limits(struct device *dev)
{
	struct sg_chain_dma_saved *saved = &sg_chain_dma_saved;

	if (!saved->set)
		return;
	dma_set_max_seg_size(dev, saved->max_seg);
	dma_set_seg_boundary(dev, saved->boundary);
	dev->dma_parms = saved->parms;
	if (dev->dma_mask && *dev->dma_mask != saved->mask)
		WARN_ON(dma_set_mask(dev, saved->mask));
	saved->set = false;
}

/*
 * Gives the device @l for a case. A device without DMA parameters (sparc32's
 * SBus devices) borrows the suite's until the limits are put back. Returns
 * false, saying why, where the run cannot have them.
 */
static bool sg_chain_dma_set_limits(struct kunit *test,
				    const struct sg_chain_dma_limits *l)
{
	struct sg_chain_dma_saved *saved = &sg_chain_dma_saved;
	struct sg_chain_dma *ctx = test->priv;
	struct device *dev = ctx->dev;
	enum sg_chain_dma_path path;
	struct iommu_domain *domain;

	saved->parms = dev->dma_parms;
	saved->max_seg = dma_get_max_seg_size(dev);
	saved->boundary = dma_get_seg_boundary(dev);
	saved->mask = dma_get_mask(dev);
	if (!dev->dma_parms) {
		dev->dma_parms = &saved->own;
		dma_set_max_seg_size(dev, saved->max_seg);
		dma_set_seg_boundary(dev, saved->boundary);
	}
	saved->set = true;
	if (l->max_seg)
		dma_set_max_seg_size(dev, l->max_seg);
	if (l->boundary)
		dma_set_seg_boundary(dev, l->boundary - 1);
	if (!l->mask)
		return true;
	if (!dev->dma_mask || dma_set_mask(dev, l->mask)) {
		kunit_info(test, "%s takes no DMA mask of %#llx: not mapped with one",
			   dev_name(dev), l->mask);
		sg_chain_dma_restore_limits(dev);
		return false;
	}
	/* A mask may move a device off its path (powerpc's bypass). */
	if (!sg_chain_dma_path_of(dev, &path, &domain) || path != ctx->path) {
		kunit_info(test, "%s with a DMA mask of %#llx is no longer %s: not mapped with one",
			   dev_name(dev), l->mask, sg_chain_dma_path_names[ctx->path]);
		sg_chain_dma_restore_limits(dev);
		return false;
	}
	return true;
}

/*
 * The segments dma-iommu makes of @nents whole pages under @max_seg and
 * the boundary @mask: iommu_dma_map_sg() gives the list one IOVA range,
 * aligned to its size rounded up to a power of two, so to a boundary
 * wherever the list spans one; __finalise_sg() then joins a page to the
 * segment before it unless the segment is full or the page starts at a
 * boundary.
 */
static unsigned int sg_chain_dma_iommu_limits_model(unsigned int nents,
						    unsigned int max_seg,
						    unsigned long mask,
						    unsigned int *seg_len)
{
	/* Pages from one boundary to the next, if the list reaches one. */
	unsigned long window = mask >> PAGE_SHIFT < nents ?
			       (mask >> PAGE_SHIFT) + 1 : ULONG_MAX;
	unsigned int i, segs = 0, cur = 0;

	for (i = 0; i < nents; i++) {
		if (cur && i % window && max_seg - cur >= PAGE_SIZE) {
			cur += PAGE_SIZE;
		} else {
			segs++;
			cur = PAGE_SIZE;
		}
		seg_len[segs - 1] = cur;
	}
	return segs;
}

/*
 * The checks of the path the device maps on, after the limits: segments
 * as dma-iommu's model says, or as no merge the architecture's mapper
 * missed, translating back; bytes in the bounce slots; bus addresses.
 */
static void sg_chain_dma_limits_path(struct kunit *test,
				     const struct sg_chain_dma_case *c,
				     struct sg_table *table, unsigned int gen)
{
	struct sg_chain_dma *ctx = test->priv;
	unsigned int max_seg = dma_get_max_seg_size(ctx->dev), segs;
	unsigned long mask = dma_get_seg_boundary(ctx->dev);

	switch (ctx->path) {
	case SG_CHAIN_DMA_IOMMU:
		/* The model lays out whole pages only. */
		if (c->layout == SG_CHAIN_DMA_FULL_PAGES) {
			segs = sg_chain_dma_iommu_limits_model(c->nents, max_seg,
							       mask, ctx->model_len);
			sg_chain_dma_expect_model(test, c, table, ctx->model_len, segs);
		}
		sg_chain_dma_translations_ok(test, c, table);
		break;
	case SG_CHAIN_DMA_ARCH_IOMMU:
		if (sg_chain_dma_translations_ok(test, c, table))
			sg_chain_dma_expect_merged(test, c, table->nents, max_seg,
						   mask);
		break;
	case SG_CHAIN_DMA_SWIOTLB:
		sg_chain_dma_bytes_ok(test, c, table, gen, true, 0, "slots after map");
		break;
	case SG_CHAIN_DMA_DIRECT:
		sg_chain_dma_direct_ok(test, c, table);
		break;
	}
}

/*
 * One list under the limits the device has now: every segment within
 * them, then the path's checks, and after the unmap nothing mapped.
 */
static void sg_chain_dma_limits_one(struct kunit *test,
				    const struct sg_chain_dma_case *c)
{
	struct sg_chain_dma *ctx = test->priv;
	struct sg_table table;
	unsigned int gen;

	gen = sg_chain_dma_map(test, &table, c);
	if (!gen)
		return;
	sg_chain_dma_segments_ok(test, c, &table);
	sg_chain_dma_limits_path(test, c, &table, gen);

	dma_unmap_sgtable(ctx->dev, &table, DMA_BIDIRECTIONAL, 0);
	if (ctx->path == SG_CHAIN_DMA_IOMMU || ctx->path == SG_CHAIN_DMA_ARCH_IOMMU)
		sg_chain_dma_expect_unmapped(test, c, ctx->seg_addr, ctx->seg_len,
					     table.nents);
	sg_free_table_chained(&table, 0);
}

static void sg_chain_dma_limits(struct kunit *test, enum sg_chain_dma_path path)
{
	struct sg_chain_dma *ctx;
	unsigned int s;

	sg_chain_dma_skip_unless(test, path);
	ctx = test->priv;
	for (s = 0; s < ARRAY_SIZE(sg_chain_dma_limit_sets); s++) {
		const struct sg_chain_dma_limits *l = &sg_chain_dma_limit_sets[s];

		if (!sg_chain_dma_set_limits(test, l))
			continue;
		kunit_info(test, "%s: max segment %u, boundary mask %#lx, DMA mask %#llx",
			   dev_name(ctx->dev), dma_get_max_seg_size(ctx->dev),
			   dma_get_seg_boundary(ctx->dev), dma_get_mask(ctx->dev));
		sg_chain_dma_each_list(test, SG_CHAIN_DMA_FULL_PAGES,
				       sg_chain_dma_limit_sizes,
				       ARRAY_SIZE(sg_chain_dma_limit_sizes),
				       sg_chain_dma_limits_one);
		sg_chain_dma_each_list(test, SG_CHAIN_DMA_MIXED,
				       sg_chain_dma_limit_sizes,
				       ARRAY_SIZE(sg_chain_dma_limit_sizes),
				       sg_chain_dma_limits_one);
		sg_chain_dma_restore_limits(ctx->dev);
	}
}

#define SG_CHAIN_DMA_LIMITS_CASE(path, PATH)				\
static void sg_chain_dma_test_##path##_limits(struct kunit *test)	\
{									\
	sg_chain_dma_limits(test, SG_CHAIN_DMA_##PATH);			\
}

SG_CHAIN_DMA_LIMITS_CASE(iommu, IOMMU)
SG_CHAIN_DMA_LIMITS_CASE(swiotlb, SWIOTLB)
SG_CHAIN_DMA_LIMITS_CASE(arch_iommu, ARCH_IOMMU)
SG_CHAIN_DMA_LIMITS_CASE(direct, DIRECT)

static void sg_chain_dma_run(struct kunit *test, enum sg_chain_dma_path path,
			     unsigned int layout)
{
	static void (*const one[])(struct kunit *test,
				   const struct sg_chain_dma_case *c) = {
		[SG_CHAIN_DMA_IOMMU] = sg_chain_dma_translated_one,
		[SG_CHAIN_DMA_SWIOTLB] = sg_chain_dma_swiotlb_one,
		[SG_CHAIN_DMA_ARCH_IOMMU] = sg_chain_dma_translated_one,
		[SG_CHAIN_DMA_DIRECT] = sg_chain_dma_direct_one,
	};

	sg_chain_dma_skip_unless(test, path);
	sg_chain_dma_each_list(test, layout, sg_chain_dma_sizes,
			       ARRAY_SIZE(sg_chain_dma_sizes), one[path]);
}

#define SG_CHAIN_DMA_CASE(path, PATH, layout, LAYOUT)			\
static void sg_chain_dma_test_##path##_##layout(struct kunit *test)	\
{									\
	sg_chain_dma_run(test, SG_CHAIN_DMA_##PATH, SG_CHAIN_DMA_##LAYOUT); \
}

SG_CHAIN_DMA_CASE(iommu, IOMMU, full_pages, FULL_PAGES)
SG_CHAIN_DMA_CASE(iommu, IOMMU, unaligned, UNALIGNED)
SG_CHAIN_DMA_CASE(iommu, IOMMU, mixed, MIXED)
SG_CHAIN_DMA_CASE(swiotlb, SWIOTLB, full_pages, FULL_PAGES)
SG_CHAIN_DMA_CASE(swiotlb, SWIOTLB, unaligned, UNALIGNED)
SG_CHAIN_DMA_CASE(swiotlb, SWIOTLB, mixed, MIXED)
SG_CHAIN_DMA_CASE(arch_iommu, ARCH_IOMMU, full_pages, FULL_PAGES)
SG_CHAIN_DMA_CASE(arch_iommu, ARCH_IOMMU, unaligned, UNALIGNED)
SG_CHAIN_DMA_CASE(arch_iommu, ARCH_IOMMU, mixed, MIXED)
SG_CHAIN_DMA_CASE(direct, DIRECT, full_pages, FULL_PAGES)
SG_CHAIN_DMA_CASE(direct, DIRECT, unaligned, UNALIGNED)
SG_CHAIN_DMA_CASE(direct, DIRECT, mixed, MIXED)

static struct kunit_case sg_chain_dma_test_cases[] = {
	KUNIT_CASE(sg_chain_dma_test_iommu_full_pages),
	KUNIT_CASE(sg_chain_dma_test_iommu_unaligned),
	KUNIT_CASE(sg_chain_dma_test_iommu_mixed),
	KUNIT_CASE(sg_chain_dma_test_iommu_limits),
	KUNIT_CASE(sg_chain_dma_test_swiotlb_full_pages),
	KUNIT_CASE(sg_chain_dma_test_swiotlb_unaligned),
	KUNIT_CASE(sg_chain_dma_test_swiotlb_mixed),
	KUNIT_CASE(sg_chain_dma_test_swiotlb_full),
	KUNIT_CASE(sg_chain_dma_test_swiotlb_limits),
	KUNIT_CASE(sg_chain_dma_test_arch_iommu_full_pages),
	KUNIT_CASE(sg_chain_dma_test_arch_iommu_unaligned),
	KUNIT_CASE(sg_chain_dma_test_arch_iommu_mixed),
	KUNIT_CASE(sg_chain_dma_test_arch_iommu_limits),
	KUNIT_CASE(sg_chain_dma_test_direct_full_pages),
	KUNIT_CASE(sg_chain_dma_test_direct_unaligned),
	KUNIT_CASE(sg_chain_dma_test_direct_mixed),
	KUNIT_CASE(sg_chain_dma_test_direct_limits),
	{}
};

static struct kunit_suite sg_chain_dma_test_suite = {
	.name = "sg_chain_dma",
	.suite_init = sg_chain_dma_suite_init,
	.suite_exit = sg_chain_dma_suite_exit,
	.init = sg_chain_dma_init,
	.exit = sg_chain_dma_exit,
	.test_cases = sg_chain_dma_test_cases,
};

kunit_test_suites(&sg_chain_dma_test_suite);

MODULE_DESCRIPTION("KUnit tests of chained scatterlists mapped for DMA");
MODULE_LICENSE("GPL");

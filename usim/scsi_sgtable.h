/*
 * The 2007 SCSI command's scatterlist handling (seed patch 17) on top of
 * the core: scsi_alloc_sgtable() allocates use_sg entries as chained
 * tables from the sg pools and remembers the count, because a DMA mapping
 * that merges entries may lower use_sg before scsi_free_sgtable().
 */
#ifndef _USIM_SCSI_SGTABLE_H
#define _USIM_SCSI_SGTABLE_H

#include <linux/scatterlist.h>

/* Largest table; longer lists chain such tables. */
#define SCSI_MAX_SG_SEGMENTS		SG_CHUNK_SIZE
/* Most entries one command may have. */
#define SCSI_MAX_SG_CHAIN_SEGMENTS	SG_MAX_SEGMENTS

struct scsi_cmnd {
	unsigned short use_sg;		/* entries in use; mapping may lower it */
	unsigned short __use_sg;	/* entries allocated, for the free */
	struct scatterlist *request_buffer;
};

/*
 * Allocate cmd->use_sg entries. Only the first table may sleep. Returns
 * the list (also in cmd->request_buffer), or NULL on failure with nothing
 * held, including when use_sg is 0 or above SCSI_MAX_SG_CHAIN_SEGMENTS.
 */
struct scatterlist *scsi_alloc_sgtable(struct scsi_cmnd *cmd, gfp_t gfp_mask);
/* Free what scsi_alloc_sgtable() allocated, whatever use_sg is now. */
void scsi_free_sgtable(struct scsi_cmnd *cmd);

#endif

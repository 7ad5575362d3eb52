/* The seed's scsi_alloc_sgtable()/scsi_free_sgtable() over the core. */
#include "scsi_sgtable.h"

struct scatterlist *scsi_alloc_sgtable(struct scsi_cmnd *cmd, gfp_t gfp_mask)
{
	struct sg_table table;

	cmd->request_buffer = NULL;
	cmd->__use_sg = 0;
	if (!cmd->use_sg || cmd->use_sg > SCSI_MAX_SG_CHAIN_SEGMENTS)
		return NULL;
	if (sg_alloc_table_chained_gfp(&table, cmd->use_sg, NULL, 0, gfp_mask))
		return NULL;

	cmd->__use_sg = cmd->use_sg;
	cmd->request_buffer = table.sgl;
	return table.sgl;
}

void scsi_free_sgtable(struct scsi_cmnd *cmd)
{
	/* The table sizes follow from the allocated count, not from use_sg. */
	struct sg_table table = {
		.sgl = cmd->request_buffer,
		.orig_nents = cmd->__use_sg,
	};

	sg_free_table_chained(&table, 0);
	cmd->request_buffer = NULL;
	cmd->__use_sg = 0;
}

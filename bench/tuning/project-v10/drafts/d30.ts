// apps/api/src/documents/documents.controller.ts (excerpt)
import { Controller, Get, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { User, ReviewUser } from '../auth/user.decorator';
import { StorageService } from '../storage/storage.service';

@Controller('documents')
export class DocumentsController {
  constructor(private readonly ds: DataSource, private readonly storage: StorageService) {}

  @Get(':id/native')
  async downloadNative(@Param('id') id: string, @User() user: ReviewUser) {
    return this.ds.transaction(async (tx) => {
      const doc = await tx.getRepository('documents').findOneByOrFail({ id });
      await tx.getRepository('audit_log').insert({ userId: user.id, documentId: id, action: 'download_native' });
      const url = await this.storage.presignGet('originals', doc.storageKey, { expiresSeconds: 300 });
      return { url };
    });
  }
}

import { Controller, Get, Param, Res, Header } from '@nestjs/common';
import type { Response } from 'express';
import { PrivLogService } from './privlog.service';
import { AuditService } from '../audit/audit.service';

@Controller('productions')
export class PrivLogController {
  constructor(private readonly privlog: PrivLogService, private readonly audit: AuditService) {}

  @Get(':id/privilege-log')
  @Header('Content-Type', 'text/csv; charset=utf-8')
  async export(@Param('id') id: string, @Res() res: Response) {
    res.write('\ufeff');
    for await (const row of this.privlog.rows(id)) res.write(row.join(',') + '\n');
    res.end();
    setImmediate(() => this.audit.record('export_privilege_log', id));
  }
}

import { Controller, Get, HttpCode, Param, Post, Query } from "@nestjs/common";
import { InjectQueue } from "@nestjs/bullmq";
import { Queue } from "bullmq";
import PDFDocument from "pdfkit";
import { ExportFormatDto } from "./dto/export-format.dto";
import { PuzzlesService } from "../puzzles/puzzles.service";

@Controller("v1/puzzles/:id/exports")
export class ExportsController {
  constructor(
    private readonly puzzles: PuzzlesService,
    @InjectQueue("exports") private readonly exportsQueue: Queue,
  ) {}

  @Post()
  @HttpCode(202)
  async create(@Param("id") id: string, @Query() q: ExportFormatDto) {
    const job = await this.exportsQueue.add("render", { puzzleId: id, format: q.format });
    return { jobId: job.id };
  }

  @Get("preview.pdf")
  async preview(@Param("id") id: string) {
    const ipuz = await this.puzzles.ipuz(id);
    const doc = new PDFDocument({ size: [289 * 2.835, 380 * 2.835] });
    drawGrid(doc, ipuz);
    doc.end();
    return doc;
  }
}

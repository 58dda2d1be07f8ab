using Claimdesk.Domain.Documents;
using Claimdesk.Infrastructure.Persistence;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.EntityFrameworkCore;

namespace Claimdesk.Api.Controllers;

[ApiController]
[Authorize(Policy = "Adjuster")]
[Route("api/claims/{claimId:guid}/documents")]
public sealed class ClaimDocumentsController : ControllerBase
{
    private readonly ClaimsDbContext _db;
    private readonly IDocumentStorage _storage;
    private readonly ILogger<ClaimDocumentsController> _logger;

    public ClaimDocumentsController(ClaimsDbContext db, IDocumentStorage storage, ILogger<ClaimDocumentsController> logger)
    {
        _db = db;
        _storage = storage;
        _logger = logger;
    }

    [HttpGet]
    public async Task<ActionResult<IReadOnlyList<ClaimDocumentDto>>> ListAsync(Guid claimId, CancellationToken ct)
    {
        var docs = await _db.ClaimDocuments
            .Where(d => d.ClaimId == claimId)
            .OrderByDescending(d => d.UploadedAt)
            .Select(d => new ClaimDocumentDto(d.Id, d.FileName, d.SizeBytes, d.UploadedAt))
            .ToListAsync(ct);

        return Ok(docs);
    }

    [HttpPost]
    [RequestSizeLimit(25 * 1024 * 1024)]
    [RequestFormLimits(MultipartBodyLengthLimit = 25 * 1024 * 1024)]
    public async Task<IActionResult> UploadAsync(Guid claimId, IFormFile file, CancellationToken ct)
    {
        var claim = await _db.Claims
            .Include(c => c.Claimant)
            .SingleOrDefaultAsync(c => c.Id == claimId, ct);

        if (claim is null)
        {
            return NotFound();
        }

        await using var stream = file.OpenReadStream();
        var stored = await _storage.SaveAsync(claimId, file.FileName, file.ContentType, stream, ct);

        claim.AttachDocument(stored.Id, file.FileName, file.Length);
        await _db.SaveChangesAsync(ct);

        _logger.LogInformation("Document {DocumentId} uploaded for {@Claimant}", stored.Id, claim.Claimant);

        return Created($"/api/claims/{claimId}/documents/{stored.Id}",
            new ClaimDocumentDto(stored.Id, file.FileName, file.Length, stored.UploadedAt));
    }
}

public sealed record ClaimDocumentDto(Guid Id, string FileName, long SizeBytes, DateTimeOffset UploadedAt);

#!/usr/bin/env perl
# script/anonymize_returned_loans -- nightly, from cron on the app host
use v5.36;
use FindBin;
use lib "$FindBin::Bin/../lib";

use DBI;
use Getopt::Long;
use Quire::Config;

GetOptions(
    'dry-run' => \my $dry_run,
    'verbose' => \my $verbose,
) or die "usage: $0 [--dry-run] [--verbose]\n";

my $cfg = Quire::Config->load;
my $dbh = DBI->connect($cfg->{db}{dsn}, $cfg->{db}{user}, $cfg->{db}{password},
    { RaiseError => 1, AutoCommit => 0, pg_enable_utf8 => 1 });

# Keep the patron link for a while after return so the desk can sort out
# "I returned it!" disputes, then drop it per the published privacy policy.
my $grace = '30 days';

my $ids = $dbh->selectcol_arrayref(<<~SQL, undef, $grace);
    SELECT id FROM loans
     WHERE returned_at IS NOT NULL
       AND patron_id IS NOT NULL
       AND returned_at < now() - ?::interval
    SQL

say scalar(@$ids) . " loans to anonymise" if $verbose;

if ($dry_run) {
    $dbh->rollback;
    exit 0;
}

my $sth = $dbh->prepare('UPDATE loans SET patron_id = NULL, anonymised_at = now() WHERE id = ?');
$sth->execute($_) for @$ids;

$dbh->do(q{INSERT INTO job_runs (job, affected, finished_at) VALUES ('anonymize_returned_loans', ?, now())},
    undef, scalar @$ids);
$dbh->commit;

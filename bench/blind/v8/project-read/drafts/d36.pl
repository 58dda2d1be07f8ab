package Quire::Task::Overdue;
use v5.36;
use Mojo::Base 'Mojolicious::Plugin';

use Email::Stuffer;
use Email::Sender::Transport::SMTP;

# Registers the send_overdue_notice Minion task. Enqueued by the nightly
# overdue sweep; never called from a request.
sub register ($self, $app, $conf) {
    my $transport = Email::Sender::Transport::SMTP->new(
        host    => $conf->{smtp_host} // 'relay.bibliotek.internal',
        port    => $conf->{smtp_port} // 25,
        timeout => 20,
    );

    $app->minion->add_task(send_overdue_notice => sub ($job, $loan_id) {
        my $loan = $app->model('Loans')->find_with_patron($loan_id)
            or return $job->finish("loan $loan_id gone");

        return $job->finish('already returned') if $loan->{returned_at};
        return $job->finish('no address on file') unless $loan->{patron_email};

        my $body = $app->render_mail('overdue/notice', loan => $loan);

        eval {
            Email::Stuffer->from('Biblioteket <noreply@bibliotek.example>')
                ->to($loan->{patron_email})
                ->subject("Forfalt: $loan->{title}")
                ->text_body($body)
                ->transport($transport)
                ->send_or_die;
            1;
        } or return $job->retry({ delay => 600 });

        $app->model('Loans')->mark_notice_sent($loan_id, 'overdue');
        $job->finish("sent for loan $loan_id");
    });
}

1;

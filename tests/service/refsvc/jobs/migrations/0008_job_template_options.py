"""A job keeps the template's options it was launched with (force_handlers, start_at_task,
use_fact_cache, allow_simultaneous), its slice number and the project revision it ran."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0007_job_job_env'),
    ]

    operations = [
        migrations.AddField(model_name='job', name='force_handlers', field=models.BooleanField(default=False)),
        migrations.AddField(model_name='job', name='start_at_task',
                            field=models.CharField(blank=True, default='', max_length=1024)),
        migrations.AddField(model_name='job', name='use_fact_cache', field=models.BooleanField(default=False)),
        migrations.AddField(model_name='job', name='allow_simultaneous', field=models.BooleanField(default=False)),
        migrations.AddField(model_name='job', name='job_slice_number', field=models.PositiveIntegerField(default=0)),
        migrations.AddField(model_name='job', name='scm_revision',
                            field=models.CharField(blank=True, default='', max_length=1024)),
    ]

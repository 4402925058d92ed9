"""Workflow jobs and approvals have every field of the unified job base; an approval's
launch type is workflow."""
from django.db import migrations, models

LAUNCH_TYPES = [
    ("manual", "Manual"), ("relaunch", "Relaunch"), ("callback", "Callback"), ("scheduled", "Scheduled"),
    ("dependency", "Dependency"), ("workflow", "Workflow"), ("webhook", "Webhook"), ("sync", "Sync"),
    ("scm", "SCM Update"),
]


def approvals_by_workflow(apps, schema_editor):
    apps.get_model("wfjobs", "WorkflowApproval").objects.update(launch_type="workflow")


class Migration(migrations.Migration):

    dependencies = [
        ('wfjobs', '0002_node_project_update'),
    ]

    operations = [
        migrations.AddField(
            model_name='workflowapproval',
            name='cancel_flag',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='workflowapproval',
            name='job_args',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AddField(
            model_name='workflowapproval',
            name='job_cwd',
            field=models.CharField(blank=True, default='', max_length=1024),
        ),
        migrations.AddField(
            model_name='workflowapproval',
            name='launch_type',
            field=models.CharField(choices=LAUNCH_TYPES, default='manual', max_length=20),
        ),
        migrations.AddField(
            model_name='workflowapproval',
            name='result_stdout',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AddField(
            model_name='workflowjob',
            name='job_args',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.AddField(
            model_name='workflowjob',
            name='job_cwd',
            field=models.CharField(blank=True, default='', max_length=1024),
        ),
        migrations.AddField(
            model_name='workflowjob',
            name='launch_type',
            field=models.CharField(choices=LAUNCH_TYPES, default='manual', max_length=20),
        ),
        migrations.AddField(
            model_name='workflowjob',
            name='result_stdout',
            field=models.TextField(blank=True, default=''),
        ),
        migrations.RunPython(approvals_by_workflow, migrations.RunPython.noop),
    ]

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('updates', '0001_initial'),
        ('wfjobs', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='workflowjobnode',
            name='project_update',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name='+', to='updates.projectupdate'),
        ),
    ]
